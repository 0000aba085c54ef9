-- Logs, once, the order `pairs` visits keys of every kind in: tables, Lua closures, the
-- libraries' functions, coroutines, the iterators `pairs` and `ipairs` hand out, strings
-- and floats, made among other allocations and collections; then what `tostring` and
-- `%p` show for a table and a function. tests/determinism.rs runs it in several processes,
-- tests/web.rs in a browser: every run must log the same lines.
-- Strings built in buffers longer than 512 bytes first: Lua makes a userdata for such a
-- buffer, which takes a creation number; the buffer's size must not differ by platform.
local long = table.concat({ string.rep("x", 600), string.format("%s", string.rep("y", 700)) })
local t, names = {}, {}
local junk = {}
for i = 1, 300 do
  junk[i % 17] = { i, tostring(i) }
  if i % 3 == 0 then local k = {} t[k] = "table" names[k] = "t" .. i end
  if i % 5 == 0 then local f = function() return i end t[f] = "function" names[f] = "f" .. i end
  if i % 7 == 0 then t["key" .. i] = "string" names["key" .. i] = "key" .. i end
  if i % 11 == 0 then t[i * 1000.5] = "float" names[i * 1000.5] = "n" .. i end
  if i % 13 == 0 then local co = coroutine.create(function() end) t[co] = "coroutine" names[co] = "co" .. i end
  if i % 50 == 0 then collectgarbage() end
end
-- The libraries' own functions as keys too (C functions, not Lua closures).
local library = {
  print = print, type = type, tostring = tostring, select = select, next = next,
  sin = math.sin, cos = math.cos, floor = math.floor, abs = math.abs, max = math.max,
  sub = string.sub, len = string.len, byte = string.byte, format = string.format,
  insert = table.insert, remove = table.remove, unpack = table.unpack,
  char = utf8.char, yield = coroutine.yield, status = coroutine.status,
}
for name, f in pairs(library) do t[f] = "library" names[f] = name end
-- The iterator functions Lua's C code hands out.
local pairs_iterator, ipairs_iterator = pairs({}), ipairs({})
t[pairs_iterator] = "iterator" names[pairs_iterator] = "pairs-iterator"
t[ipairs_iterator] = "iterator" names[ipairs_iterator] = "ipairs-iterator"

local order = {}
for k in pairs(t) do order[#order + 1] = names[k] end
local logged = false
function update()
  if logged then return end
  logged = true
  log("order " .. table.concat(order, ","))
  log("ids " .. tostring(junk) .. " " .. tostring(update) .. " " .. string.format("%p", t)
    .. " " .. tostring(pairs_iterator) .. " " .. string.format("%p %p", ipairs_iterator, long)
    .. " " .. #long)
end
