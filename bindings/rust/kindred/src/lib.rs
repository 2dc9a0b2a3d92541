//! Safe Rust binding of libkindred: clustering with side information (must-link / cannot-link
//! pairs, relative triplets, partial labels).
//!
//! Every algorithm of the installed library is reachable by name, with options set by name from
//! its registry; nothing here is specific to one algorithm.
//!
//! Points are borrowed, not copied: a [`Dense`] matrix of `f64` (the default) or of `f32`
//! (`Dense::row_major(&x32, n, d)`, read in place by the library's float32 functions; the result
//! is that of the `f64` points holding the same values), or a [`Csr`] matrix.
//!
//! ```no_run
//! use kindred::{Dense, Model, Side};
//! let x = vec![0.0, 0.1, 0.2, 5.0, 5.1, 5.2];            // 6 points in 1-D
//! let mut side = Side::new(6)?;
//! side.add_pairs(&[0], &[3], &[-1.0])?;                   // 0 and 3 apart
//! let mut model = Model::new("kmeans")?;
//! model.set("k", 2)?.set("seed", 1)?;
//! model.fit(Dense::row_major(&x, 6, 1)?, Some(&side))?;
//! println!("{:?}", model.labels()?);
//! # Ok::<(), kindred::Error>(())
//! ```
mod active;
mod data;
mod error;
mod eval;
mod model;
mod registry;
mod side;

pub use active::{active_select, Answer};
pub use data::{Array, Csr, Dense, Layout, Points, Scalar};
pub use error::{Error, Result, Status};
pub use eval::metric;
pub use model::{LogLevel, Model, OptionValue, Progress, Summary};
pub use registry::{algorithm_summary, algorithm_uses, algorithms, metrics, options, version, OptionInfo, OptionType, Uses};
pub use side::{Sample, Side, SideCounts};

/// The raw C declarations, for what the safe layer does not cover.
pub use kindred_sys as sys;
