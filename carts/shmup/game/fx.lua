-- Effects and items: explosions, hit sparks, and the score items that dead enemies drop
-- and cancelled bullets turn into. Items are sprites the script moves (they home in on the
-- ship); enemy bullets are never moved here, only by the bullet unit.

local C = require("game.core")
local art = require("game.art")
local G = C.G

local FX = {}

local booms, sparks, items = {}, {}, {}
local MAX_ITEMS = 90          -- more than this turn straight into score

function FX.reset()
  booms, sparks, items = {}, {}, {}
end

-- An explosion at (x, y); `big` uses the 32 px frames; `delay` frames before it shows.
function FX.boom(x, y, big, delay)
  booms[#booms + 1] = { x = x, y = y, t = -(delay or 0), big = big }
end

function FX.spark(x, y)
  if #sparks < 24 then sparks[#sparks + 1] = { x = x, y = y, t = 0 } end
end

-- A ring of explosions, for big deaths, boss phase changes and the ship's own death.
function FX.burst(x, y, n, radius, delay_step, big)
  for i = 0, n - 1 do
    local a = (i * 256 // n + rndi(0, 20)) % 256
    local r = radius * (0.4 + rnd(0.6))
    FX.boom(x + C.COS[a] * r, y + C.SIN[a] * r, big, i * delay_step)
  end
end

-- An item: "star" (from cancelled bullets, 10 points) or "gem" (from enemies, 100).
function FX.item(x, y, kind)
  local value = kind == "gem" and 100 or 10
  if #items >= MAX_ITEMS then
    G.score = G.score + value
    return
  end
  local a = rndi(160, 224)      -- pop upward, then home in
  local s = 0.8 + rnd(1.2)
  items[#items + 1] = { x = x, y = y, vx = C.COS[a] * s, vy = C.SIN[a] * s, t = 0,
                        kind = kind, value = value }
end

-- Turns a flat {x1, y1, x2, y2, ...} list from bu_cancel into star items.
function FX.items_from(positions)
  for i = 1, #positions, 2 do FX.item(positions[i], positions[i + 1], "star") end
end

-- Ages every effect in `list` by a frame and drops, in place, those `life(e)` says are over.
local function age(list, life)
  local n = 0
  for i = 1, #list do
    local e = list[i]
    e.t = e.t + 1
    if e.t < life(e) then
      n = n + 1
      list[n] = e
    end
  end
  for i = n + 1, #list do list[i] = nil end
end

local function boom_life(b) return b.big and 20 or 24 end
local function spark_life() return 6 end

function FX.update(px, py, alive)
  age(booms, boom_life)
  age(sparks, spark_life)

  local n = 0
  for i = 1, #items do
    local it = items[i]
    it.t = it.t + 1
    local keep = true
    if it.t < 20 or not alive then
      -- Pop, slow down, then (with no ship to fly to) drift down.
      it.vy = it.vy + 0.06
      it.x, it.y = it.x + it.vx, it.y + it.vy
      it.vx = it.vx * 0.95
      keep = it.y < 270
    else
      local dx, dy = px - it.x, py - it.y
      local d = math.sqrt(dx * dx + dy * dy)
      if d < 10 then
        G.score = G.score + it.value
        C.sound("item", 3)
        keep = false
      else
        local s = math.min(9, 1 + (it.t - 20) * 0.25)
        it.x, it.y = it.x + dx / d * s, it.y + dy / d * s
      end
    end
    if keep then
      n = n + 1
      items[n] = it
    end
  end
  for i = n + 1, #items do items[i] = nil end
end

function FX.draw()
  for i = 1, #booms do
    local b = booms[i]
    if b.t >= 0 then
      if b.big then
        C.put("fx", art.bigboom + (b.t // 5) * 4, b.x - 16, b.y - 16, 4, C.PAL_FX)
      else
        C.put("fx", art.boom + (b.t // 4) * 2, b.x - 8, b.y - 8, 2, C.PAL_FX)
      end
    end
  end
  for i = 1, #sparks do
    local s = sparks[i]
    C.put("fx", art.spark + s.t // 2, s.x - 4, s.y - 4, 1, C.PAL_FX)
  end
  local blink = (frame() // 6) % 2
  for i = 1, #items do
    local it = items[i]
    local tile = (it.kind == "gem" and art.gem or art.star) + blink
    C.put("item", tile, it.x - 4, it.y - 4, 1, C.PAL_FX)
  end
end

return FX
