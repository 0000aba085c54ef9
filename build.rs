//! Builds the Lua 5.4 that runs carts — Kairo's copy in `lua/src`, with its determinism
//! changes — and links it for mlua (`mlua-sys`'s `external` feature).
//!
//! What makes the copy Kairo's (each change in `lua/src` is marked `Kairo`; see
//! `lua/README.md`):
//! - Lua seeds its string hashes (`luai_makeseed`: the clock and some addresses) and its
//!   `table.sort` pivots (`l_randomizePivot`: the clock) per run. Both are fixed in
//!   `luaconf.h`, so `pairs` order over string keys and the comparisons a sort makes are the
//!   same on every run.
//! - Tables, functions, userdata and coroutines are numbered in the order they are created
//!   and hashed by that number as table keys, not by their address (which differs between
//!   platforms), so `pairs` order over such keys is the same natively and on the web.
//!
//! Every build of Kairo gets these, including a crate that depends on Kairo.
//! `tests/determinism.rs` and `tests/web.rs` check the pinned order.

use std::env;
use std::path::Path;

fn main() {
    let source = Path::new("lua/src");
    let target = env::var("TARGET").unwrap_or_default();
    let mut lua = cc::Build::new();
    lua.warnings(false)
        .include(source)
        .flag_if_supported("-fno-common")
        // The compatibility mlua's `lua54` feature was built against (lua-src sets it).
        .define("LUA_COMPAT_5_3", None);
    if target.contains("linux") || target.ends_with("bsd") || target.contains("dragonfly") {
        lua.define("LUA_USE_LINUX", None);
    } else if target.contains("apple-darwin") {
        lua.define("LUA_USE_MACOSX", None);
    } else if target.contains("apple-ios") {
        lua.define("LUA_USE_IOS", None);
    } else if target.contains("windows") {
        lua.define("LUA_USE_WINDOWS", None);
    } else if target.ends_with("emscripten") {
        // Lua's errors are setjmp/longjmp, which need WebAssembly exceptions here.
        lua.define("LUA_USE_POSIX", None)
            .flag("-sSUPPORT_LONGJMP=wasm");
    } else {
        lua.define("LUA_USE_POSIX", None);
    }
    if env::var("PROFILE").as_deref() == Ok("debug") {
        // Lua checks the arguments of its C API in debug builds, as lua-src did.
        lua.define("LUA_USE_APICHECK", None);
    }
    if env::var("OPT_LEVEL").as_deref() == Ok("0") {
        // Unoptimised Lua makes debug builds' tests crawl; nobody steps through it.
        lua.opt_level(2);
    }
    let mut files: Vec<_> = std::fs::read_dir(source)
        .expect("lua/src is part of Kairo's sources")
        .map(|entry| entry.expect("lua/src can be listed").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    files.sort();
    lua.files(&files).compile("lua5.4");
    println!("cargo:rerun-if-changed=lua/src");
    println!("cargo:rerun-if-changed=build.rs");
}
