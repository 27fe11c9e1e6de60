import CZstd
