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

// -----

// A builtin resource is the token "0x..." itself (an escape is not read), whole bytes, whose
// first 4 bytes give a power-of-two alignment, as MLIR's blob reader requires.
// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:40: error: expected hex string blob for key 'a'
module {}
{-# dialect_resources: { builtin: { a: "\30x04000000" } } #-}

// -----

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:40: error: expected hex string blob for key 'a'
module {}
{-# dialect_resources: { builtin: { a: "0x0400000" } } #-}

// -----

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:40: error: expected hex string blob for key 'a' to encode alignment in first 4 bytes
module {}
{-# dialect_resources: { builtin: { a: "0x04" } } #-}

// -----

// CHECK: dialect_resources_errors.mlir:[[# @LINE + 2]]:40: error: expected hex string blob for key 'a' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3
module {}
{-# dialect_resources: { builtin: { a: "0x03000000aa" } } #-}
