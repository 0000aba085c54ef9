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
//!
//! It also gives the build its code id (`KAIRO_CODE_ID`): a hash of the sources that make
//! the machine and its dependencies' versions, so two builds of other code never meet in a
//! netplay match even when their version strings agree (the same sources give the same id
//! on every machine). The Lua library is compiled again only when its sources or flags
//! change, not on every change of the Rust sources.

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rustc-env=KAIRO_CODE_ID={:016x}", code_id());
    build_lua();
}

/// FNV-1a 64, folded over `bytes` from `hash`.
fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}

/// Every file under `dir`, sorted, appended to `files`.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// The hash of the machine's sources (Rust and Lua), the manifest and the lock file, by
/// their paths and their text with line ends made alike (a Windows checkout hashes as a
/// Unix one).
fn code_id() -> u64 {
    let mut files = Vec::new();
    for dir in ["src", "../lua/src"] {
        walk(Path::new(dir), &mut files);
        println!("cargo:rerun-if-changed={dir}");
    }
    for file in ["Cargo.toml", "../Cargo.lock", "build.rs"] {
        files.push(PathBuf::from(file));
        println!("cargo:rerun-if-changed={file}");
    }
    let mut hash = 0xCBF2_9CE4_8422_2325;
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let name = file.to_string_lossy().replace('\\', "/");
        hash = fnv(hash, name.as_bytes());
        hash = fnv(hash, &[0]);
        let text: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\r').collect();
        hash = fnv(hash, &text);
    }
    hash
}

fn build_lua() {
    let source = Path::new("../lua/src");
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
    // Compiled again only when the sources or the flags differ from the last compile.
    let mut stamp = fnv(0xCBF2_9CE4_8422_2325, format!("{lua:?}").as_bytes());
    for file in &files {
        stamp = fnv(stamp, &std::fs::read(file).unwrap_or_default());
    }
    for header in std::fs::read_dir(source).into_iter().flatten().flatten() {
        if header.path().extension().is_some_and(|ext| ext == "h") {
            stamp = fnv(stamp, &std::fs::read(header.path()).unwrap_or_default());
        }
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let stamp_file = out.join("lua5.4.stamp");
    let stamp = format!("{stamp:016x}");
    let library = ["liblua5.4.a", "lua5.4.lib"];
    let built = library.iter().any(|name| out.join(name).exists());
    if built && std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str()) {
        println!("cargo:rustc-link-search=native={}", out.display());
        println!("cargo:rustc-link-lib=static=lua5.4");
        return;
    }
    lua.files(&files).compile("lua5.4");
    std::fs::write(&stamp_file, stamp).expect("OUT_DIR is writable");
}
