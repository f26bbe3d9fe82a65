// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:5: error: unknown file-metadata section 'dialect_blobs'
module {}
{-# dialect_blobs: { builtin: { a: "0x04000000" } } #-}

// -----

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:37: error: missing value for 'a' in file metadata
module {}
{-# dialect_resources: { builtin: { a: } } #-}

// -----

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:57: error: expected ',' or '#-}' after a file-metadata section
module {}
{-# dialect_resources: { builtin: { a: "0x04000000" } } x
#-}

// -----

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:24: error: unbalanced '{'
module {}
{-# dialect_resources: { builtin: { a: "0x04000000" }
