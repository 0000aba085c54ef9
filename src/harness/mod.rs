//! The developer harness: `kairo bench` and its workloads, the budget's calibration
//! (`kairo bench calibration`), the fuzz targets' bodies, and the UDP relay that makes the
//! network worse on purpose for netplay's tests and benchmarks.

pub mod bench;
pub mod calibrate;
pub mod fuzz;
#[cfg(feature = "netplay")]
pub mod netplay;
#[cfg(feature = "netplay")]
pub mod relay;
