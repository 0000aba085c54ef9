//! Kairo's stand-in for `js-sys` (see `Cargo.toml`): the only JavaScript call GGRS makes,
//! `js_sys::Date::new_0().get_time()`, answered from the C library's wall clock, which
//! emscripten implements with JavaScript's `Date.now()`.

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment on the wall clock, as JavaScript's `Date` holds it: milliseconds since the Unix
/// epoch.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Date {
    millis: f64,
}

impl Date {
    /// Now (JavaScript's `new Date()`).
    pub fn new_0() -> Date {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |since| since.as_secs_f64() * 1000.0);
        Date { millis }
    }

    /// Milliseconds since the Unix epoch (JavaScript's `Date.prototype.getTime`).
    pub fn get_time(&self) -> f64 {
        self.millis
    }
}

#[cfg(test)]
mod tests {
    use super::Date;

    #[test]
    fn now_is_after_2020_and_does_not_go_back() {
        let first = Date::new_0().get_time();
        assert!(first > 1.577e12, "{first}");
        assert!(Date::new_0().get_time() >= first);
    }
}
