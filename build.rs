//! Builds the Lua 5.4 that runs carts, with Kairo's determinism settings compiled in.
//!
//! Lua seeds its string hashes (`luai_makeseed`: the clock and some addresses) and its
//! `table.sort` pivots (`l_randomizePivot`: the clock) per run, so `pairs` order over string
//! keys and the comparisons a sort makes would differ between runs, and replays, save states
//! and golden frames with them. Both are fixed here, in Kairo's own build script, so every
//! build of Kairo gets them — including a crate that depends on Kairo — rather than only
//! builds that read a `.cargo/config.toml`. mlua links this library (`mlua-sys`'s `external`
//! feature); `tests/determinism.rs` checks the pinned order.

use std::env;

/// The definitions that pin the seed and the pivot.
const DETERMINISM: &str = "-Dluai_makeseed(L)=0x4b4149u -Dl_randomizePivot()=0u";

fn main() {
    // lua-src compiles through the `cc` crate, which takes the first of these variables
    // that is set; the user's own flags are kept and ours added to them.
    let target = env::var("TARGET").unwrap_or_default();
    let names = [
        format!("CFLAGS_{target}"),
        format!("CFLAGS_{}", target.replace('-', "_")),
        "TARGET_CFLAGS".to_string(),
        "CFLAGS".to_string(),
    ];
    let user = names.iter().find_map(|name| env::var(name).ok());
    for name in &names {
        println!("cargo:rerun-if-env-changed={name}");
    }
    let flags = match user {
        Some(user) if !user.trim().is_empty() => format!("{user} {DETERMINISM}"),
        _ => DETERMINISM.to_string(),
    };
    // SAFETY: a build script is single-threaded here; the variable is read by `cc` below.
    unsafe { env::set_var(&names[0], flags) };
    lua_src::Build::new()
        .build(lua_src::Lua54)
        .print_cargo_metadata();
    println!("cargo:rerun-if-changed=build.rs");
}
