"""The tf.image namespace (compat.v1): resizing, flips and rotations, crops and pads, dtype
conversion, brightness/contrast, grayscale and standardization. TF1 has none of these at the top
level, so `tensorweave/__init__.py` imports this package rather than star-importing image_ops.

Not implemented: decode_*/encode_* (PNG, JPEG, GIF, BMP), bicubic resizing, HSV/YIQ/YUV
conversions, hue/saturation/gamma, bounding boxes, non-max suppression, crop_and_resize,
extract patches, ssim/psnr."""

from ..ops.image_ops import *  # noqa: F401,F403
from ..ops.image_ops import __all__  # noqa: F401
