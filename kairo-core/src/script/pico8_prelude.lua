-- PICO-8's functions that are plain Lua over Kairo's, run once in a PICO-8 cart's sandbox
-- after the API is bound (see sandbox.rs), with Lua's own `xpcall` and a message handler that
-- adds the traceback (for the frame driver at the end).
local pico8_xpcall, traceback = ...
local m, kairo, floor = math, kairo, math.floor
function flr(x) return floor(tonumber(x) or 0) end
function ceil(x) return m.ceil(tonumber(x) or 0) end
function abs(x) return m.abs(tonumber(x) or 0) end
function sgn(x) return (tonumber(x) or 0) < 0 and -1 or 1 end
function min(a, b) a, b = tonumber(a) or 0, tonumber(b) or 0 if a < b then return a end return b end
function max(a, b) a, b = tonumber(a) or 0, tonumber(b) or 0 if a > b then return a end return b end
function mid(a, b, c)
  a, b, c = tonumber(a) or 0, tonumber(b) or 0, tonumber(c) or 0
  if a > b then a, b = b, a end
  if b > c then b = c end
  if a > b then b = a end
  return b
end
function sqrt(x) x = tonumber(x) or 0 if x <= 0 then return 0 end return m.sqrt(x) end
function sin(x) return -m.sin((tonumber(x) or 0) * 2 * m.pi) end
function cos(x) return m.cos((tonumber(x) or 0) * 2 * m.pi) end
function atan2(dx, dy)
  dx, dy = tonumber(dx) or 0, tonumber(dy) or 0
  if dx == 0 and dy == 0 then return 0.75 end
  local a = m.atan(-(tonumber(dy) or 0), tonumber(dx) or 0) / (2 * m.pi)
  if a < 0 then a = a + 1 end
  return a
end
-- Lua's own generator on the machine's (deterministic) one, as on Kairo's carts; PICO-8's
-- `rnd` and `srand` are the layer's, on PICO-8's generator.
m.random, m.randomseed = kairo.math.random, kairo.math.randomseed
-- PICO-8's numbers are 16.16 fixed point, and its bitwise functions (and operators, which
-- kairo import writes as these functions) work on all 32 bits, the fraction included. A
-- number goes in as the bits PICO-8 would hold for it: times 65536, truncated toward zero,
-- wrapped to 32 bits (as PICO-8 reads a Lua number); the bits come back as a number, an
-- integer when there is no fraction.
local huge = m.huge
-- The 32 bits of x as a whole number 0 .. 2^32 - 1 (a float; Lua's bitwise operators take
-- it as the integer); nil is 0.
local function bits(x)
  local v = (x or 0) * 65536.0
  if v >= 0 then v = v // 1 else v = -(-v // 1) end
  v = v % 4294967296.0
  if v ~= v then
    -- Infinities (Lua's 1/0) are PICO-8's largest numbers; NaN is 0.
    if x == huge then return 0x7fffffff elseif x == -huge then return 0x80000001 end
    return 0
  end
  return v
end
-- Bits (any integer: the low 32 count) as PICO-8's number.
local function number(b)
  b = ((b & 0xffffffff) ~ 0x80000000) - 0x80000000
  if b & 0xffff == 0 then return b // 65536 end
  return b / 65536
end
-- A shift count: flr of PICO-8's number.
local function shift_count(n)
  return ((bits(n) ~ 0x80000000) - 0x80000000) // 65536
end
function band(a, b) return number(bits(a) & bits(b)) end
function bor(a, b) return number(bits(a) | bits(b)) end
function bxor(a, b) return number(bits(a) ~ bits(b)) end
function bnot(a) return number(~bits(a)) end
-- Shifts of the bits b by the count n: by 32 or more they give 0 (or -1, shifting a
-- negative number right); a negative count shifts the other way.
local function left(b, n)
  if n >= 32 or n <= -32 then return 0 end
  if n < 0 then return b >> -n end
  return b << n
end
local function right(b, n)
  if n < 0 then return left(b, -n) end
  if n > 31 then n = 31 end
  -- Arithmetic: floor division of the signed bits.
  return ((b ~ 0x80000000) - 0x80000000) // (1 << n)
end
function shl(a, n) return number(left(bits(a), shift_count(n))) end
function shr(a, n) return number(right(bits(a), shift_count(n))) end
function lshr(a, n) return number(left(bits(a), -shift_count(n))) end
-- Rotations by the count's low 5 bits.
function rotl(a, n)
  local b = bits(a)
  n = shift_count(n) & 31
  return number(b << n | b >> (32 - n))
end
function rotr(a, n)
  local b = bits(a)
  n = shift_count(n) & 31
  return number(b >> n | b << (32 - n))
end
function add(t, v, i)
  if t == nil then return nil end
  if i then table.insert(t, i, v) else t[#t + 1] = v end
  return v
end
function del(t, v)
  if t == nil then return nil end
  for i = 1, #t do
    if t[i] == v then table.remove(t, i) return v end
  end
end
function deli(t, i)
  if t == nil then return nil end
  return table.remove(t, i or #t)
end
function count(t, v)
  if t == nil then return 0 end
  if v == nil then return #t end
  local n = 0
  for i = 1, #t do if t[i] == v then n = n + 1 end end
  return n
end
function all(t)
  if t == nil then return function() end end
  local i, last = 0, nil
  return function()
    if last ~= nil and t[i] ~= last then i = i - 1 end
    i = i + 1
    last = t[i]
    return last
  end
end
-- pairs(nil) and ipairs(nil) are empty in PICO-8.
local lua_pairs, lua_ipairs = pairs, ipairs
local function nothing() end
function pairs(t) if t == nil then return nothing end return lua_pairs(t) end
function ipairs(t) if t == nil then return nothing end return lua_ipairs(t) end
function foreach(t, f) for v in all(t) do f(v) end end
sub = string.sub
chr = string.char
unpack, pack = table.unpack, table.pack
-- The codes of n characters from i; nil for what is no string (a number is its text).
function ord(s, i, n)
  local kind = type(s)
  if kind ~= "string" and kind ~= "number" then return nil end
  if i == nil and n == nil then return string.byte(s) end
  i = floor(tonumber(i) or 1)
  return string.byte(s, i, i + floor(tonumber(n) or 1) - 1)
end
-- tostr(v, flags): 0x1 writes a number's 32 bits in hex ("0x0001.8000"), 0x2 writes them
-- as one integer (decimal, or "0x00018000" with 0x1 too); true is 0x1.
function tostr(...)
  local v, flags = ...
  if select("#", ...) == 0 then return "" end
  if type(v) == "number" then
    flags = flags == true and 1 or tonumber(flags) or 0
    if flags ~= 0 then
      local b = bits(v) // 1
      local hex, whole = band(flags, 1) ~= 0, band(flags, 2) ~= 0
      if hex and whole then return string.format("0x%08x", b) end
      if hex then return string.format("0x%04x.%04x", b >> 16, b & 0xffff) end
      if whole then return string.format("%d", ((b ~ 0x80000000) - 0x80000000)) end
    end
    if v == floor(v) and v > -1e15 and v < 1e15 then return string.format("%d", v) end
    local s = string.format("%.4f", v):gsub("0+$", ""):gsub("%.$", "")
    return s
  end
  if v == nil then return "[nil]" end
  return tostring(v)
end
-- The value of hex or binary digits "int.frac" as PICO-8 reads them (the whole part wraps at
-- 16 bits, the fraction keeps 16 bits), or nil.
local function radix_number(digits, radix)
  local int, frac = string.match(digits, "^(%w*)%.?(%w*)$")
  if int == nil or (int == "" and frac == "") then return nil end
  local value = 0
  for i = 1, #int do
    local d = tonumber(string.sub(int, i, i), radix)
    if d == nil then return nil end
    value = (value * radix + d) % 65536
  end
  local scale = 1
  for i = 1, #frac do
    local d = tonumber(string.sub(frac, i, i), radix)
    if d == nil then return nil end
    scale = scale / radix
    value = value + d * scale
  end
  return number(bits(value))
end
-- tonum(v, flags): numbers as they are; strings in decimal, or hex ("0x1f.8") and binary
-- ("0b101") as PICO-8 reads them. Flags: 0x1 reads hex without "0x", 0x2 takes the value as
-- the number's 32 bits, 0x4 gives 0 instead of nil when the string is no number.
function tonum(v, flags)
  if type(v) == "number" then return v end
  flags = tonumber(flags) or 0
  local value
  if type(v) == "string" then
    local s = string.lower(string.match(v, "^%s*(.-)%s*$"))
    local sign = 1
    if string.sub(s, 1, 1) == "-" then sign, s = -1, string.sub(s, 2) end
    if band(flags, 1) ~= 0 then
      value = radix_number(s, 16)
    elseif string.sub(s, 1, 2) == "0x" then
      value = radix_number(string.sub(s, 3), 16)
    elseif string.sub(s, 1, 2) == "0b" then
      value = radix_number(string.sub(s, 3), 2)
    elseif string.match(s, "^%d*%.?%d*$") and s ~= "" and s ~= "." then
      value = tonumber(s)
    end
    if value ~= nil then
      value = sign * value
      if band(flags, 2) ~= 0 then value = number(bits(value / 65536)) end
    end
  end
  if value == nil and band(flags, 4) ~= 0 then return 0 end
  return value
end
function split(s, sep, convert)
  if s == nil then return {} end
  if type(s) ~= "string" then s = tostr(s) end
  sep = sep or ","
  if type(sep) == "number" then
    local out = {}
    for i = 1, #s, sep do
      local piece = string.sub(s, i, i + sep - 1)
      if convert ~= false and tonumber(piece) then piece = tonumber(piece) end
      out[#out + 1] = piece
    end
    return out
  end
  local out, at = {}, 1
  if sep == "" then
    for i = 1, #s do out[i] = string.sub(s, i, i) end
    return out
  end
  while true do
    local i = string.find(s, sep, at, true)
    local piece = string.sub(s, at, (i or #s + 1) - 1)
    if convert ~= false and tonumber(piece) then piece = tonumber(piece) end
    out[#out + 1] = piece
    if not i then return out end
    at = i + #sep
  end
end
function time() return kairo.time() end
function printh(v) kairo.log(tostr(v)) end
t = time
-- PICO-8's names for Lua's coroutines (a cart's own; `flip` inside one is an error), and
-- `mapdraw`, the old name of `map`.
cocreate, coresume, costatus, yield = coroutine.create, coroutine.resume, coroutine.status, coroutine.yield
mapdraw = map
local function missing(name)
  return function() error(name .. " is not in Kairo's PICO-8 layer yet", 2) end
end
-- Persistent data: PICO-8's 64 numbers are Kairo's save RAM slots 0-63, kept under the
-- cart's save_id (kairo import sets it from cartdata's id).
function cartdata(id) return false end
function dget(i) return kairo.sd_get(floor(tonumber(i) or 0)) end
function dset(i, v) kairo.sd_set(floor(tonumber(i) or 0), tonumber(v) or 0) end

-- The frame driver. The console runs the cart's main chunk and `_init` (boot), then each
-- PICO-8 frame `_update` (or `_update60`) and `_draw` (step), each inside a coroutine that
-- `flip` suspends: the console shows the screen, and the next PICO-8 frame resumes it. The
-- coroutines live in the Lua heap, so in-process snapshots (rewind, netplay) hold them as
-- they stand, and state files, which replay the run, rebuild them.
-- What step returns to the console: 0 the frame's code ended, 1 it flipped, 2 `_update`
-- ended and `_draw` is next (the console steps the bullet unit between them).
local ENDED, FLIPPED, UPDATED = 0, 1, 2
local co_create, co_resume, co_yield = coroutine.create, coroutine.resume, coroutine.yield
local co_running, co_status = coroutine.running, coroutine.status
local type, error, pico8_raise = type, error, error
local FLIP, MID = {}, {}
-- The coroutine suspended in `flip` (or between `_update` and `_draw`), the one running,
-- and whether the suspended one is the boot (main chunk and `_init`).
local pending, running, booting = nil, nil, false

local function entry(name)
  local f = _ENV[name]
  if f == nil then return end
  if type(f) ~= "function" then
    error("the global `" .. name .. "` is a " .. type(f) .. ", not a function", 0)
  end
  f()
end

function flip()
  if running == nil or co_running() ~= running then
    error("flip: called inside a coroutine of the cart's own; Kairo's PICO-8 layer waits "
      .. "for the next frame only from the main chunk, _init, _update and _draw", 2)
  end
  co_yield(FLIP)
end

local function run(co)
  running = co
  local ok, what = co_resume(co)
  running = nil
  if not ok then
    pending = nil
    pico8_raise(what, 0)
  end
  if co_status(co) == "dead" then
    pending = nil
    return ENDED
  end
  if what ~= FLIP and what ~= MID then
    pending = nil
    error("attempt to yield from outside a coroutine", 0)
  end
  pending = co
  return what == FLIP and FLIPPED or UPDATED
end

-- A coroutine running `body`; an error in it keeps the traceback of where it was raised.
local function driven(body)
  return co_create(function()
    local ok, e = pico8_xpcall(body, traceback)
    if not ok then pico8_raise(e, 0) end
  end)
end

local function boot(chunk)
  booting = true
  local result = run(driven(function() chunk() entry("_init") end))
  if result == ENDED then booting = false end
  return result
end

local function step(update)
  if pending then
    local result = run(pending)
    if result ~= ENDED or not booting then return result end
    -- The main chunk and `_init` ended: this frame goes on with `_update` and `_draw`.
    booting = false
  end
  return run(driven(function()
    entry(update)
    co_yield(MID)
    entry("_draw")
  end))
end

-- The sandbox makes each name of `pico8::MISSING` a `missing` function.
return boot, step, missing
