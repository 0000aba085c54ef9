//! Kairo's string matcher against Lua's own: the same calls in a plain Lua 5.4 state and in a
//! state with `strmatch::install`, compared value by value, error message by error message
//! (position prefix included: both states run the same chunk, so the prefixes agree too).
//!
//! Two sources of cases: a deterministic pseudo-random generator of subjects, patterns, init
//! positions and replacements over a small alphabet (so matches happen), and a hand-written
//! table of the tricky cases.

use std::cell::Cell;
use std::rc::Rc;

use kairo::script::strmatch;
use mlua::{Function, Lua, Table, Value};

/// Defines `R.find`, `R.match`, `R.gmatch`, `R.gsub` and `R.eval`, each returning one string
/// that describes everything the call returned or raised. It uses no function that Kairo
/// replaces.
const DRIVER: &str = r#"
local function show(v)
  local t = type(v)
  if t == 'string' then return string.format('%q', v) end
  if t == 'number' then return math.type(v) .. ':' .. string.format('%.17g', v) end
  if t == 'boolean' or t == 'nil' then return tostring(v) end
  return t
end
local function ser(...)
  local n, parts = select('#', ...), {}
  for i = 1, n do parts[i] = show((select(i, ...))) end
  return n .. '[' .. table.concat(parts, ', ') .. ']'
end
local function call(f)
  return ser(pcall(function()
    local r = table.pack(f())
    return table.unpack(r, 1, r.n)
  end))
end
local function iterate(it)
  local out = {}
  for k = 1, 64 do
    local r = table.pack(it())
    if r.n == 0 or r[1] == nil then out[k] = 'end ' .. ser(table.unpack(r, 1, r.n)); break end
    out[k] = ser(table.unpack(r, 1, r.n))
  end
  return table.concat(out, '; ')
end
local lookup = { a = 'A', b = false, ab = '<ab>', ['1'] = 7, [1] = 'pos1', [2] = 2.5,
                 [' '] = '_', ['('] = {} }
local function replace(a, b, ...)
  if type(a) == 'number' then return a * 10 end
  if #a % 4 == 0 then return nil end
  if #a % 4 == 1 and b == nil then return false end
  return '<' .. a .. ',' .. tostring(b) .. ',' .. select('#', ...) .. '>'
end
-- Not a tail call: the calling frame stays, so errors are located at its line in both
-- states (see a_tail_called_error_differs_only_in_its_position).
local function pass(...) return ... end
R = {}
function R.find(s, p, init, plain)
  return call(function() return pass(s:find(p, init, plain)) end)
end
function R.match(s, p, init)
  return call(function() return pass(string.match(s, p, init)) end)
end
function R.gmatch(s, p, init)
  return call(function() return pass(iterate(s:gmatch(p, init))) end)
end
function R.gsub(s, p, repl, n)
  if repl == 'TABLE' then repl = lookup elseif repl == 'FUNCTION' then repl = replace end
  return call(function() return pass(string.gsub(s, p, repl, n)) end)
end
function R.eval(code)
  local f = load('local lookup, replace, iterate = ...\n' .. code, '=case')
  return call(function() return f(lookup, replace, iterate) end)
end
"#;

/// A Lua state with the driver, on Lua's matcher or on Kairo's.
struct Side {
    lua: Lua,
    functions: Table,
}

impl Side {
    fn new(kairo: bool, steps: Rc<Cell<u64>>) -> Side {
        let lua = Lua::new();
        if kairo {
            strmatch::install(&lua, move |_, n| {
                steps.set(steps.get() + n);
                Ok(())
            })
            .expect("install");
        }
        lua.load(DRIVER).set_name("=driver").exec().expect("driver");
        let functions = lua.globals().get("R").expect("R");
        Side { lua, functions }
    }

    fn run(&self, case: &Case) -> String {
        let f: Function = self.functions.get(case.kind).expect("driver function");
        let s = |bytes: &[u8]| Value::String(self.lua.create_string(bytes).expect("string"));
        let args: Vec<Value> = case
            .args
            .iter()
            .map(|a| match a {
                Arg::Bytes(b) => s(b),
                Arg::Int(i) => Value::Integer(*i),
                Arg::Bool(b) => Value::Boolean(*b),
                Arg::Nil => Value::Nil,
            })
            .collect();
        f.call::<String>(mlua::MultiValue::from_vec(args))
            .unwrap_or_else(|e| format!("host error: {e}"))
    }
}

#[derive(Clone, Debug)]
enum Arg {
    Bytes(Vec<u8>),
    Int(i64),
    Bool(bool),
    Nil,
}

#[derive(Clone, Debug)]
struct Case {
    kind: &'static str,
    args: Vec<Arg>,
}

impl Case {
    fn describe(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match a {
                Arg::Bytes(b) => format!("{:?}", String::from_utf8_lossy(b)),
                other => format!("{other:?}"),
            })
            .collect();
        format!("{}({})", self.kind, args.join(", "))
    }
}

/// SplitMix64: small, deterministic, good enough to spread cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }
}

/// Subject bytes: mostly `a` and `b`, some brackets, space, digits, capitals, a NUL now and
/// then.
fn subject(rng: &mut Rng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"aaabbc()  1A.%]-^";
    let len = rng.below(13);
    (0..len)
        .map(|_| {
            if rng.chance(2) {
                0
            } else {
                ALPHABET[rng.below(ALPHABET.len())]
            }
        })
        .collect()
}

/// One single-character class, maybe repeated (at most three repetitions per pattern, so
/// Lua's own matcher stays quick on every case).
fn class(rng: &mut Rng, repeats: &mut usize) -> String {
    let mut item = match rng.below(100) {
        0..35 => rng
            .pick(&[
                "a", "a", "b", "c", "1", " ", "A", "%(", "%)", "%.", "%%", "%]", "%-",
            ])
            .to_string(),
        35..45 => ".".to_string(),
        45..65 => rng
            .pick(&[
                "%a", "%d", "%s", "%w", "%l", "%u", "%p", "%x", "%c", "%g", "%A", "%S", "%W", "%D",
                "%z", "%Z", "%P",
            ])
            .to_string(),
        _ => {
            let mut set = String::from("[");
            if rng.chance(25) {
                set.push('^');
            }
            for _ in 0..1 + rng.below(3) {
                set.push_str(
                    rng.pick(&["a", "b", "a-b", "%d", "%a", "(", ")", "-", "%]", "^", "."]),
                );
            }
            set.push(']');
            set
        }
    };
    if *repeats < 3 && rng.chance(45) {
        *repeats += 1;
        item.push_str(rng.pick(&["*", "+", "-", "?"]));
    }
    item
}

fn sequence(rng: &mut Rng, depth: usize, repeats: &mut usize) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(4) {
        match rng.below(100) {
            0..68 => out.push_str(&class(rng, repeats)),
            68..78 if depth < 2 => {
                out.push('(');
                out.push_str(&sequence(rng, depth + 1, repeats));
                out.push(')');
            }
            78..82 => out.push_str("()"),
            82..86 => out.push_str(rng.pick(&["%b()", "%bab", "%b))"])),
            86..91 => out.push_str(rng.pick(&["%f[%w]", "%f[^a]", "%f[%s]", "%f[a-b]", "%f[%z]"])),
            91..96 => out.push_str(rng.pick(&["%1", "%1", "%2", "%0"])),
            _ => out.push_str(rng.pick(&["%", "[a", ")", "%f", "%fa", "%b(", "(", "[]", "[^]"])),
        }
    }
    out
}

fn pattern(rng: &mut Rng) -> Vec<u8> {
    let mut repeats = 0;
    let mut p = String::new();
    if rng.chance(20) {
        p.push('^');
    }
    p.push_str(&sequence(rng, 0, &mut repeats));
    if rng.chance(15) {
        p.push('$');
    }
    p.into_bytes()
}

fn replacement(rng: &mut Rng) -> Vec<u8> {
    let mut r = String::new();
    for _ in 0..rng.below(4) {
        r.push_str(rng.pick(&["x", "%0", "%1", "%2", "%%", "-", "%3", "yz"]));
    }
    if rng.chance(4) {
        r.push_str(rng.pick(&["%a", "%"]));
    }
    r.into_bytes()
}

fn init(rng: &mut Rng) -> Arg {
    if rng.chance(50) {
        Arg::Nil
    } else {
        Arg::Int(rng.below(32) as i64 - 15)
    }
}

fn random_case(rng: &mut Rng) -> Case {
    let s = Arg::Bytes(subject(rng));
    let p = Arg::Bytes(pattern(rng));
    match rng.below(7) {
        0 => {
            let plain = if rng.chance(15) {
                Arg::Bool(true)
            } else {
                Arg::Nil
            };
            Case {
                kind: "find",
                args: vec![s, p, init(rng), plain],
            }
        }
        1 => Case {
            kind: "match",
            args: vec![s, p, init(rng)],
        },
        2 => Case {
            kind: "gmatch",
            args: vec![s, p, init(rng)],
        },
        kind => {
            let repl = match kind {
                3 | 4 => Arg::Bytes(replacement(rng)),
                5 => Arg::Bytes(b"TABLE".to_vec()),
                _ => Arg::Bytes(b"FUNCTION".to_vec()),
            };
            let n = if rng.chance(25) {
                Arg::Int(rng.below(5) as i64 - 1)
            } else {
                Arg::Nil
            };
            Case {
                kind: "gsub",
                args: vec![s, p, repl, n],
            }
        }
    }
}

fn compare(cases: &[Case]) -> (usize, Vec<String>) {
    let steps = Rc::new(Cell::new(0));
    let lua = Side::new(false, Rc::default());
    let kairo = Side::new(true, steps.clone());
    let mut differences = Vec::new();
    let mut errors = 0;
    for case in cases {
        let expected = lua.run(case);
        let got = kairo.run(case);
        if expected.starts_with("2[false") {
            errors += 1;
        }
        if expected != got {
            differences.push(format!(
                "{}\n   lua:   {expected}\n   kairo: {got}",
                case.describe()
            ));
        }
    }
    assert!(steps.get() > 0, "the matcher charged nothing");
    (errors, differences)
}

fn report(differences: &[String]) -> String {
    let shown: Vec<&str> = differences.iter().take(25).map(String::as_str).collect();
    format!("{} differences:\n{}", differences.len(), shown.join("\n"))
}

#[test]
fn random_cases_agree_with_lua() {
    let mut rng = Rng(0x4B41_4952_4F21);
    let cases: Vec<Case> = (0..6000).map(|_| random_case(&mut rng)).collect();
    let (errors, differences) = compare(&cases);
    assert!(differences.is_empty(), "{}", report(&differences));

    // The cases reach every corner: matches, misses and errors of every kind.
    let lua = Side::new(false, Rc::default());
    let outcomes: Vec<String> = cases.iter().map(|c| lua.run(c)).collect();
    let found = outcomes
        .iter()
        .filter(|o| o.starts_with("3[true, int"))
        .count();
    let matched = outcomes
        .iter()
        .filter(|o| o.starts_with("2[true, \""))
        .count();
    for needle in [
        "ends with '%'",
        "missing ']'",
        "missing arguments to '%b'",
        "missing '[' after '%f'",
        "invalid capture index",
        "invalid pattern capture",
        "unfinished capture",
        "invalid use of '%'",
        "invalid replacement value",
    ] {
        assert!(
            outcomes.iter().any(|o| o.contains(needle)),
            "no random case raised {needle:?}"
        );
    }
    eprintln!(
        "{} random cases agree: {found} finds found, {matched} matches, {errors} errors",
        cases.len()
    );
    assert!(found > 100 && matched > 200 && errors > 200);
}

/// Expressions evaluated in both states; each may use `lookup` (a gsub table), `replace` (a
/// gsub function) and `iterate` (collects a gmatch).
const HAND_CASES: &[&str] = &[
    // init beyond, before and at the ends
    "return string.find('abc', 'b', 10)",
    "return string.find('abc', '', 4)",
    "return string.find('abc', '', 5)",
    "return string.find('abc', '', -1)",
    "return string.find('abc', 'a', -10)",
    "return string.find('abc', 'c', math.maxinteger)",
    "return string.find('abc', 'c', math.mininteger)",
    "return string.match('abc', '.', 0)",
    "return string.find('', '')",
    "return string.find('', '', 2)",
    "return string.match('', '.*')",
    "return string.find('abc', '.-', 4)",
    // plain
    "return string.find('a.c', '.', 1, true)",
    "return string.find('a+b', '+', 1, true)",
    "return string.find('a.b', '.', 1, 0)",
    "return string.find('ab', 'b', 1, false)",
    "return string.find('a)b', ')')",
    "return string.find('a]b', ']')",
    "return string.find('a\\0b', '\\0')",
    "return string.find('aaab', 'aab')",
    "return string.find('a^b', '^b', 1, true)",
    // anchors
    "return string.find('abc', '^')",
    "return string.find('abc', '^b')",
    "return string.find('abc', 'c$')",
    "return string.find('abc', 'b$')",
    "return string.find('a$b', 'a$b')",
    "return string.find('abc', '$')",
    "return string.find('', '^$')",
    "return string.match('^a', 'a^')",
    // captures
    "return string.match('  x', '()x()')",
    "return string.find('  x', '()x()')",
    "return string.match('key = value', '(%w+)%s*=%s*(%w+)')",
    "return string.match('abcabc', '(abc)%1')",
    "return string.match('aaa', '(a*(.)%w(%s*))')",
    "return string.match('abc', '()(b)()')",
    "return string.match('abab', '()ab%1')",
    "return string.match('hello', '(h)(e)(l)(l)(o)')",
    "return string.find('a', '(a')",
    "return string.match('a', '(a')",
    "return string.match('a', '(a%1)')",
    "return string.match('aa', '(a)%1')",
    "return string.match('a', ('('):rep(32) .. 'a' .. (')'):rep(32))",
    "return string.match('a', ('('):rep(33) .. 'a' .. (')'):rep(33))",
    // frontier and balance
    "return string.match('THE (quick) fox', '%f[%a]%a+', 5)",
    "return string.gsub('THE (quick) fox', '%f[%a]%a+%f[%A]', 'W')",
    "return string.gsub('a b', '%f[%w]', '|')",
    "return string.find('abc', '%f[%z]')",
    "return string.find('abc', '%f[^%z]')",
    "return string.match('f(a(b)c', '%b()')",
    "return string.match('x = ((1)', '%b()')",
    "return string.match('\"a\" \"b\"', '%b\"\"')",
    "return string.match('((a)', '%b()')",
    "return string.match('a', '%b')",
    "return string.match('a', '%ba')",
    // classes over every byte
    "local all = {} for i = 0, 255 do all[#all + 1] = string.char(i) end all = table.concat(all) \
     local out = {} for c in ('acdglpsuwxzACDGLPSUWXZq.%'):gmatch('.') do \
     out[#out + 1] = select(1, string.gsub(all, '%' .. c, '')) end return table.concat(out, '|')",
    "local all = {} for i = 0, 255 do all[#all + 1] = string.char(i) end all = table.concat(all) \
     return string.gsub(all, '[%a-z_%]]', ''), string.gsub(all, '[^%d-]', ''), \
     string.gsub(all, '[a-%%]', ''), string.gsub(all, '[]]', ''), string.gsub(all, '[^]]', '')",
    "return string.find('a\\0b', '%z'), string.find('a\\0b', '[%z]'), string.find('a\\0b', '%Z+')",
    // gmatch
    "return iterate(('abc'):gmatch(''))",
    "return iterate(('abc'):gmatch('%w*'))",
    "return iterate(('a,b,,c'):gmatch('([^,]*)'))",
    "return iterate(('^a^a'):gmatch('^a'))",
    "return iterate(('hello world from lua'):gmatch('%a+', 7))",
    "return iterate(('abc'):gmatch('.', 10))",
    "return iterate(('abc'):gmatch('.', -1))",
    "return iterate(('k=v, a=b'):gmatch('(%w+)=(%w+)'))",
    "return iterate(('abc'):gmatch('()'))",
    "return iterate(('abc'):gmatch('x%'))",
    "return iterate(('xbc'):gmatch('x%'))",
    "local it = ('ab'):gmatch('.') return it(), it(), it(), it()",
    "for k in ('ab'):gmatch('(') do end",
    "return string.gmatch()",
    "return string.gmatch('a', 'a', 'x')",
    // gsub
    "return string.gsub('hello world', '(%w+)', '<%1>')",
    "return string.gsub('abc', '', '-')",
    "return string.gsub('abc', '%w*', '-')",
    "return string.gsub('abc', 'b*', 'X')",
    "return string.gsub('hello', '', '.', 2)",
    "return string.gsub('abc', '^a', 'X')",
    "return string.gsub('aaa', '^a', 'X')",
    "return string.gsub('abc', '$', 'X')",
    "return string.gsub('', '', 'x')",
    "return string.gsub('abc', '%w', '%0%0')",
    "return string.gsub('abc', '%w', '%%')",
    "return string.gsub('abc', '%w', '%1')",
    "return string.gsub('abc', '%w', '%2')",
    "return string.gsub('abc', '(%w)', '%2')",
    "return string.gsub('abc', '%w', '%x')",
    "return string.gsub('abc', '%w', 'x%')",
    "return string.gsub('abc', 'x', '%2')",
    "return string.gsub('abc', '(a', '%1')",
    "return string.gsub('abc', '()', '%1')",
    "return string.gsub('abc', '%w', {a = 1, b = true})",
    "return string.gsub('abc', '%w', {a = 'A', b = false})",
    "return string.gsub('abc', '%w', {a = {}})",
    "return string.gsub('abc', '.', {a = 1.5})",
    "return string.gsub('abc', '()', {[1] = 'one', [4] = 'four'})",
    "return string.gsub('abc', '%w', setmetatable({}, {__index = function() return 'Z' end}))",
    "return string.gsub('abc', '%w', function(c) if c == 'b' then return nil end return c:upper() end)",
    "return string.gsub('abc', '.', function() return 2^53 end)",
    "return string.gsub('abc', '.', function() return {} end)",
    "return string.gsub('abc', '.', function() end)",
    "return string.gsub('abc', '(b)', function() error('boom') end)",
    "return string.gsub('abc', '(b)', function() error('boom', 0) end)",
    "return type(select(2, pcall(string.gsub, 'abc', '(b)', function() error({}) end)))",
    "return string.gsub('a b', '%w', function(w) return (string.find('xyz' .. w, w)) end)",
    "return string.gsub('abc', '%w', 5)",
    "return string.gsub('abc', '%w', 0.5)",
    "return string.gsub(123, '2', 'x')",
    "return string.gsub(123, 'x', 'y')",
    "return string.gsub(1.5, '%.', ',')",
    "return string.gsub('abc', '%w', 'x', 0)",
    "return string.gsub('abc', '%w', 'x', -1)",
    "return string.gsub('abc', '%w', 'x', 2.0)",
    "return string.gsub('abc', '%w', 'x', '2')",
    "return string.gsub('abc', '%w', 'x', 2.5)",
    "return string.gsub('abc', '%w', 'x', 'many')",
    "return string.gsub('abc', '%w', 'x', math.maxinteger)",
    "return string.gsub('abc', '%w')",
    "return string.gsub('abc', '%w', nil)",
    "return string.gsub('abc', '%w', true)",
    "return string.gsub('abc', '%w', nil, 'x')",
    "return string.gsub('abc', '%w', setmetatable({}, {__name = 'Thing'}), {})",
    // argument checks and their names
    "return string.find()",
    "return string.find('a')",
    "return string.find('a', 'a', {})",
    "return string.find('a', 'a', 1.5)",
    "return string.find('a', 'a', '1')",
    "return string.find('a', 'a', '0x1')",
    "return string.find('a', 'a', '1e0')",
    "return string.find(12, 2)",
    "return string.match(nil, 'a')",
    "return ('x'):find({})",
    "return ('x'):match()",
    "local t = setmetatable({}, {__index = string}) return t:find('x')",
    "return select(2, pcall(string.find))",
    "return select(2, pcall(string.gsub, 'a', 'a'))",
    "local f = string.find return f(nil)",
    "return string.find('x', setmetatable({}, {__name = 'Thing'}))",
    "return string.find('x', print)",
    "return string.find('x', coroutine.create(print))",
    // errors in the pattern
    "return string.find('a', '%')",
    "return string.find('abc', 'x%')",
    "return string.find('xbc', 'x%')",
    "return string.find('a', '[a')",
    "return string.find('a', '[]')",
    "return string.find('a', '[^]')",
    "return string.find('a', '[%')",
    "return string.find('a', '%f')",
    "return string.find('a', '%fa')",
    "return string.find('a', '%b')",
    "return string.find('a', '%b(')",
    "return string.find('a', '%1')",
    "return string.find('a', '%0')",
    "return string.find('a', 'a)')",
    "return string.match('a)b', ')')",
    // depth: 199 nested choices fit, 200 do not
    "return string.find(('a'):rep(300), ('a?'):rep(199))",
    "return string.find(('a'):rep(300), ('a?'):rep(200))",
    "return string.find(('a'):rep(300), ('a*'):rep(199))",
    "return string.find(('a'):rep(300), ('a*'):rep(200))",
    "return string.match(('a'):rep(300), ('a-'):rep(199) .. '$')",
    "return string.match(('a'):rep(300), ('a-'):rep(200) .. '$')",
    "return string.match(('a'):rep(300), ('(a)'):rep(32))",
    "return string.match(('ab'):rep(150), ('(a)b'):rep(32))",
    "return string.find(('a'):rep(10), ('a?'):rep(10) .. ('a'):rep(10))",
    "return string.find(('a'):rep(300), ('a?'):rep(250) .. 'b')",
    "return string.find('aaa', ('x?'):rep(300))",
    "return string.find('b', ('a?'):rep(300))",
];

/// Rewrites the case's last `return e` as `local r = table.pack(e) return table.unpack(r)`,
/// so the call is not a tail call (see the test below for what a tail call changes).
fn without_tail_call(code: &str) -> String {
    match code.rfind("return ") {
        Some(at) => format!(
            "{}local r__ = table.pack({}) return table.unpack(r__, 1, r__.n)",
            &code[..at],
            &code[at + "return ".len()..]
        ),
        None => code.to_string(),
    }
}

#[test]
fn hand_cases_agree_with_lua() {
    let cases: Vec<Case> = HAND_CASES
        .iter()
        .map(|code| Case {
            kind: "eval",
            args: vec![Arg::Bytes(without_tail_call(code).into_bytes())],
        })
        .collect();
    let (errors, differences) = compare(&cases);
    assert!(differences.is_empty(), "{}", report(&differences));
    assert!(errors > 40, "only {errors} hand cases raised errors");
}

/// The one known difference: a tail call drops the caller's frame before the matcher runs,
/// so the message names the position of the caller's caller (Lua's C function still sees
/// the caller's).
#[test]
fn a_tail_called_error_differs_only_in_its_position() {
    let code = "return string.find('a', '%')";
    let case = Case {
        kind: "eval",
        args: vec![Arg::Bytes(code.as_bytes().to_vec())],
    };
    let lua = Side::new(false, Rc::default()).run(&case);
    let kairo = Side::new(true, Rc::default()).run(&case);
    assert_eq!(
        lua,
        "2[false, \"case:2: malformed pattern (ends with '%')\"]"
    );
    assert_ne!(lua, kairo);
    assert!(
        kairo.starts_with("2[false, \"driver:")
            && kairo.ends_with(": malformed pattern (ends with '%')\"]"),
        "{kairo}"
    );
}
