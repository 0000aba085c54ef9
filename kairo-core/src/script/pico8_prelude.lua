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
function rnd(x)
  if type(x) == "table" then
    if #x == 0 then return nil end
    return x[m.random(#x)]
  end
  return m.random() * (tonumber(x) or 1)
end
function srand(x) m.randomseed(floor(tonumber(x) or 0)) end
function band(a, b) return floor(a or 0) & floor(b or 0) end
function bor(a, b) return floor(a or 0) | floor(b or 0) end
function bxor(a, b) return floor(a or 0) ~ floor(b or 0) end
function bnot(a) return ~floor(a or 0) end
function shl(a, n) return floor(a or 0) << floor(n or 0) end
function shr(a, n) return floor(a or 0) >> floor(n or 0) end
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
function foreach(t, f) for v in all(t) do f(v) end end
sub = string.sub
chr = string.char
unpack, pack = table.unpack, table.pack
function ord(s, i) return string.byte(s, i or 1) end
function tostr(v)
  if type(v) == "number" then
    if v == floor(v) and v > -1e15 and v < 1e15 then return string.format("%d", v) end
    local s = string.format("%.4f", v):gsub("0+$", ""):gsub("%.$", "")
    return s
  end
  if v == nil then return "[nil]" end
  return tostring(v)
end
function tonum(v) return tonumber(v) end
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
