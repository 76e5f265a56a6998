"""The tf.signal namespace: FFTs (fft, ifft, rfft, irfft and their 2-D/3-D forms), fftshift,
framing (frame, overlap_and_add), windows, STFTs, mel filterbanks, MFCCs and DCTs."""

from .ops.spectral_ops import (fft, fft2d, fft3d, fftshift, ifft, ifft2d, ifft3d,  # noqa: F401
                               ifftshift, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d)
from .ops.signal_ops import frame, hamming_window, hann_window, overlap_and_add  # noqa: F401
from .ops.signal_spectral_ops import (dct, idct, inverse_stft, inverse_stft_window_fn,  # noqa: F401
                                      linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms, stft)
from .ops.signal_more_ops import (fftnd, ifftnd, inverse_mdct, irfftnd, kaiser_bessel_derived_window,  # noqa: F401
                                  kaiser_window, mdct, rfftnd, vorbis_window)

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d",
           "rfft3d", "irfft3d", "fftshift", "ifftshift", "frame", "overlap_and_add", "hann_window",
           "hamming_window", "stft", "inverse_stft", "inverse_stft_window_fn", "dct", "idct",
           "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "fftnd", "ifftnd", "rfftnd", "irfftnd",
           "kaiser_window", "kaiser_bessel_derived_window", "vorbis_window", "mdct", "inverse_mdct"]
