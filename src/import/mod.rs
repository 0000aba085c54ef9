//! Bringing carts of other consoles over: PICO-8's `.p8` carts ([`pico8`]).

pub mod pico8;
