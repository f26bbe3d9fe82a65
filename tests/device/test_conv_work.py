"""A conv's shape and K tiles come from its attributes, whatever form its weight has: an OIHW weight
and the prepared 1x1x(in*kh*kw)xout one (const-eval's prepare_conv2d_weights) cost the same."""

from types import SimpleNamespace

from ttopt.device.cost_model import _conv_shape
from ttopt.device.cost_terms import ConvShape, conv_k_tiles
from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.types import ScalarType

I32 = ScalarType("i32")


def _conv(kernel: tuple[int, int] | None, cin: int | None, groups: int = 1) -> SimpleNamespace:
    props = {"groups": IntegerAttr(groups, I32)}
    if kernel is not None:
        props["kernel_size"] = DenseArrayAttr("i32", kernel)
    if cin is not None:
        props["in_channels"] = IntegerAttr(cin, I32)
    return SimpleNamespace(properties=props)


def test_prepared_and_oihw_weights_give_one_shape() -> None:
    x, out = (1, 1, 401408, 3), (1, 1, 1568, 768)
    oihw = _conv_shape(_conv((16, 16), 3), [x, (768, 3, 16, 16)], out)
    prepared = _conv_shape(_conv((16, 16), 3), [x, (1, 1, 768, 768)], out)
    assert oihw == prepared == ConvShape(1568, 3, 768, 1, 16, 16)
    assert conv_k_tiles(oihw) == 16 * 4  # 3 channels aligned to 8: a 16-wide kernel row is 4 tiles


def test_a_non_square_kernel_reads_its_rows_and_columns() -> None:
    conv = _conv_shape(_conv((1, 7), 64), [(1, 1, 100, 64), (64, 64, 1, 7)], (1, 1, 100, 64))
    assert (conv.kernel_h, conv.kernel_w) == (1, 7) and conv_k_tiles(conv) == 14


def test_without_attributes_the_weight_shape_decides() -> None:
    # An OIHW weight gives the kernel and channels; a prepared one only its K (its kernel unknown: 1x1).
    oihw = _conv_shape(_conv(None, None), [(1, 1, 100, 3), (16, 3, 7, 7)], (1, 1, 100, 16))
    assert (oihw.in_channels, oihw.kernel_h, oihw.kernel_w) == (3, 7, 7)
    prepared = _conv_shape(_conv(None, None), [(1, 1, 100, 3), (1, 1, 147, 16)], (1, 1, 100, 16))
    assert (prepared.in_channels, prepared.kernel_h, prepared.kernel_w) == (147, 1, 1)


def test_a_grouped_conv_is_padded_to_its_channels_a_depthwise_one_keeps_one() -> None:
    grouped = _conv_shape(_conv((3, 3), 64, groups=4), [(1, 1, 100, 64), (64, 16, 3, 3)], (1, 1, 100, 64))
    depthwise = _conv_shape(_conv((3, 3), 64, groups=64), [(1, 1, 100, 64), (64, 1, 3, 3)], (1, 1, 100, 64))
    assert conv_k_tiles(grouped) == 18 and conv_k_tiles(depthwise) == 3
    assert conv_k_tiles(depthwise, c_in_cores=8) == 3  # not more K for more channel cores
