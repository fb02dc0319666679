"""The commands, one module per family: machines, analysis (analyze, raster), kernels (predict,
tune, explore, rank), plots, measured (calibrate, measure, sweep, validate). Each parses its
options (roofmodel.cli.options), calls the library, and renders; nothing more."""
