-- Logs the cycles Lua's library and VM work costs, piece by piece: long strings made,
-- copied, compared, transformed and used as keys; values moved by calls, varargs, unpack,
-- table.move/insert/sort; UTF-8; formats; floats as text; packs; a coroutine; full
-- collections. The work is counted in lengths and counts (lua/README.md), so every run and
-- platform logs the same lines: tests/determinism.rs runs it in several processes,
-- tests/web.rs in a browser.
local S = string.rep("Kairo abc 12345!", 4096)
local T = {}
for i = 1, 5000 do T[i] = (i * 7919) % 5003 end
local keep = {}
local function many(...) return select("#", ...) end
local pieces = {
  { "upper", function() return S:upper() end },
  { "sub", function() return S:sub(2, -2) end },
  { "concat", function() return S .. S end },
  { "compare", function() return S < S:sub(1, -2) .. "z" end },
  { "key", function() local t = {} t[S:sub(3)] = 1 return t end },
  { "rep", function() return ("ab"):rep(20000, ",") end },
  { "format", function() return string.format("%s %q %99d", S, S:sub(1, 500), 7) end },
  { "byte", function() return many(S:byte(1, 5000)) end },
  { "unpack", function() return many(table.unpack(T)) end },
  { "move", function() return table.move(T, 1, #T, 1, {}) end },
  { "insert", function() table.insert(T, 1, 0) return table.remove(T, 1) end },
  { "sort", function() local c = table.move(T, 1, #T, 1, {}) table.sort(c) return c end },
  { "sortf", function() local c = table.move(T, 1, 500, 1, {}) table.sort(c, function(a, b) return a > b end) return c end },
  { "concat_t", function() local w = {} for i = 1, 500 do w[i] = tostring(i) end return table.concat(w, ",") end },
  { "utf8", function() local u = utf8.char(table.unpack(T, 1, 300)) return utf8.len(u), many(utf8.codepoint(u, 1, -1)) end },
  { "pack", function() return string.unpack(string.rep("i4", 100), string.pack(string.rep("i4", 100), table.unpack(T, 1, 100))) end },
  { "tonumber", function() return tonumber(S), tonumber("  12345.75  ") end },
  { "floats", function()
    local t, big, small = {}, 1.5, 1.5
    for i = 1, 20 do
      big, small = big * 3.3e14, small / 3.3e14
      t[i] = tostring(big) .. small .. (i / 7) .. string.format("%.99f %g %.14e %a %.3f",
        1e308 / i, 1 / i, -i * 1e-300, i / 7, big)
    end
    return t
  end },
  { "coroutine", function() local co = coroutine.wrap(function(...) coroutine.yield(...) return 1 end) return co(table.unpack(T, 1, 1000)) end },
  { "collect", function() keep[#keep + 1] = { S:sub(1, 100), {}, {} } collectgarbage() return true end },
  { "step", function() return collectgarbage("step") end },
}
function init()
  local total = 0
  for _, piece in ipairs(pieces) do
    local before = cycles()
    local result = piece[2]()
    local used = cycles() - before
    total = total + used
    log("work " .. piece[1] .. " " .. used .. " " .. tostring(type(result)))
  end
  log("work total " .. total)
end
