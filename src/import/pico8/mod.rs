//! PICO-8 carts: reading the `.p8` text format ([`p8`]) and translating its Lua dialect to
//! standard Lua 5.4 line for line ([`lua`]).

pub mod folder;
pub mod lua;
pub mod p8;
pub mod png;
