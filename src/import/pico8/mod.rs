//! PICO-8 carts: reading the `.p8` text format ([`p8`]) and the `.p8.png` image ([`png`]),
//! translating the Lua dialect to standard Lua 5.4 line for line ([`lua`]), and writing the
//! cart folder `kairo import` makes ([`cart`], [`folder`]).

pub mod cart;
pub mod folder;
pub mod lua;
pub mod p8;
pub mod png;
