"""A conv's work is its reduction length from its attributes, whatever form its weight has: an
OIHW weight and the prepared 1x1x(in*kh*kw)xout one (const-eval's prepare_conv2d_weights) cost the same."""

from types import SimpleNamespace

from ttopt.device.cost_model import _conv_reduction
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


def test_prepared_and_oihw_weights_give_one_reduction_length() -> None:
    x = (1, 1, 401408, 3)
    assert _conv_reduction(_conv((16, 16), 3), [x, (768, 3, 16, 16)]) == 768
    assert _conv_reduction(_conv((16, 16), 3), [x, (1, 1, 768, 768)]) == 768


def test_groups_divide_the_channels() -> None:
    assert _conv_reduction(_conv((3, 3), 64, groups=64), [(1, 1, 100, 64), (64, 1, 3, 3)]) == 9


def test_without_attributes_the_weight_shape_decides() -> None:
    assert _conv_reduction(_conv(None, None), [(1, 1, 100, 3), (16, 3, 7, 7)]) == 147
    assert _conv_reduction(_conv(None, None), [(1, 1, 100, 3), (1, 1, 147, 16)]) == 147
