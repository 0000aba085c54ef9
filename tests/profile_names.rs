//! The profiler names only the cart's own functions (issue 22): the cycles of the sandbox's
//! Lua (its `coroutine.resume`, `pcall`, `table.sort` wrappers, the pattern matching glue) and
//! of its size charges go to the cart function that called them, and a function Lua can only
//! name by how it was called (`handlers[i]()`, `handlers[1]()`) is named by where the cart
//! defines it. Driven through `kairo profile`, as a cart maker runs it.

mod common;

use std::collections::BTreeSet;

use common::{kairo, root, temp_dir};

/// A cart with a coroutine boss resumed each frame, handlers called from an array, a sort
/// comparator and the other library calls the sandbox wraps.
const CART: &str = r#"local boss = coroutine.create(function()
  while true do
    for i = 1, 400 do end
    coroutine.yield()
  end
end)

local handlers = {
  function() for i = 1, 300 do end end,
  function() for i = 1, 200 do end end,
}

local step = coroutine.wrap(function()
  while true do
    for i = 1, 250 do end
    coroutine.yield()
  end
end)

local function on_error(e)
  for i = 1, 100 do end
  return e
end

local items = {}
for i = 1, 60 do items[i] = (i * 7919) % 101 end

function update()
  coroutine.resume(boss)
  for i = 1, #handlers do handlers[i]() end
  handlers[2]()
  step()
  xpcall(error, on_error, "boom")
  pcall(cls, 0)
  for word in string.gmatch("one two three", "%a+") do end
  table.sort(items, function(a, b) return a > b end)
  local s = table.concat(items, ",") .. string.rep("x", 200)
  local found = s:find("9+")
end
"#;

/// Whether `name` is `who (main.lua:N)` with `who` an identifier or `function`.
fn is_cart_function(name: &str) -> bool {
    let Some((who, place)) = name.split_once(" (") else {
        return false;
    };
    let Some(line) = place
        .strip_prefix("main.lua:")
        .and_then(|p| p.strip_suffix(')'))
    else {
        return false;
    };
    let identifier = who
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && who.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    identifier && line.parse::<u32>().is_ok()
}

#[test]
fn the_profile_names_only_the_carts_functions() {
    let dir = temp_dir("profile-names");
    let cart = dir.join("cart");
    std::fs::create_dir_all(&cart).unwrap();
    std::fs::write(cart.join("cart.toml"), "name = \"Names\"\n").unwrap();
    std::fs::write(cart.join("main.lua"), CART).unwrap();
    let json = dir.join("p.json");
    let (code, out, err) = kairo(
        &[
            "profile",
            cart.to_str().unwrap(),
            "--frames",
            "60",
            "--json",
            json.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    for bad in [
        "kairo:",
        "strmatch:",
        "integer index",
        "? (",
        "[C]",
        "outside Lua",
    ] {
        assert!(!out.contains(bad), "`{bad}` in the report:\n{out}");
    }

    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("the JSON parses");
    let names: BTreeSet<&str> = doc["summary"]["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| f["name"].as_str().expect("a name"))
        .collect();
    for name in &names {
        assert!(is_cart_function(name), "`{name}` among {names:#?}");
    }
    for wanted in [
        "function (main.lua:1)",  // the coroutine boss
        "function (main.lua:9)",  // handlers[i]()
        "function (main.lua:10)", // handlers[i]() and handlers[2]()
        "function (main.lua:13)", // coroutine.wrap's body
        "function (main.lua:20)", // on_error, as xpcall calls it
        "function (main.lua:36)", // the sort comparator
        "update (main.lua:28)",
    ] {
        assert!(names.contains(wanted), "no `{wanted}` in {names:#?}");
    }
    assert_eq!(names.len(), 7, "{names:#?}");

    // Every script cycle of every frame is in one of those functions.
    for frame in doc["frames"].as_array().expect("frames") {
        let script = frame["units"]["script"].as_u64().unwrap();
        let functions: u64 = frame["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["cycles"].as_u64().unwrap())
            .sum();
        assert_eq!(functions, script, "frame {}", frame["frame"]);
    }
}
