-- A stage: its Tiled map loaded into the video and collision layers, and the things its
-- object layer places: coins, walkers (on the floor or on the ceiling), bees, lifts (moving
-- platforms of the collision unit), gravity-flip zones and the goal.

local stage = {}

-- What differs between the stages: map, colours (palette 1 recoloured), parallax.
stage.LIST = {
  { map = "stage1", name = "GREEN HILLS", sky = 0x6ec6f5, parallax = 2, music = "stage1" },
  { map = "stage2", name = "THE OLD TOWER", sky = 0x2a1c3c, parallax = 1, music = "tower",
    colors = { [2] = 0x3a2430, [3] = 0x5c3a44, [4] = 0x86606a,
               [5] = 0x1e4a40, [6] = 0x2e7a5a, [7] = 0x5aa878 } },
  { map = "stage3", name = "FROZEN RIDGE", sky = 0x14183a, parallax = 2, music = "stage1",
    colors = { [2] = 0x3c4660, [3] = 0x5a6688, [4] = 0x8090b0,
               [5] = 0x9aa8c8, [6] = 0xdce6f4, [7] = 0xffffff } },
}

-- Groups of the hitbox lists.
stage.G_HERO, stage.G_ENEMY, stage.G_COIN, stage.G_GOAL = 0, 1, 2, 3

local SPRITES = 256 -- first tile of sprites.png in pattern VRAM
local LIFT_WAIT = 40 -- frames a lift rests at each end

-- Pattern tile of 16x16 sprite slot k of sprites.png (8 slots per row).
function stage.slot(k)
  return SPRITES + (k // 8) * 32 + (k % 8) * 2
end

local default_colors = nil

-- Palette 1 as the cart's manifest set it, to restore between stages.
local function remember_colors()
  if default_colors then return end
  default_colors = {}
  for c = 0, 15 do default_colors[c] = pal(1, c) end
end

-- Loads stage `n` and returns its state.
function stage.load(n)
  remember_colors()
  local def = stage.LIST[n]
  for c = 0, 15 do pal(1, c, (def.colors and def.colors[c]) or default_colors[c]) end
  backdrop(def.sky)

  local s = { n = n, def = def, coins = {}, walkers = {}, bees = {}, lifts = {}, flips = {},
              cam = { x = 0, y = 0 }, taken = 0 }
  s.cols, s.rows = map_load(def.map, "terrain", 0)
  map_load(def.map, "background", 1)
  col_load(def.map, "terrain")
  col_margin(4, 2)
  layer_prio(0, 1)
  layer_prio(1, 0)
  layer_on(0)
  layer_on(1)

  for _, o in ipairs(map_objects(def.map)) do
    local p = o.props
    if o.name == "player_start" then
      s.start = { x = o.x, y = o.y }
    elseif o.name == "coin" then
      s.coins[#s.coins + 1] = { x = o.x, y = o.y }
    elseif o.name == "walker" then
      local g = p.gravity == "up" and -1 or 1
      s.walkers[#s.walkers + 1] = { x = o.x + 2, y = o.y + 2, w = 12, h = 14,
                                    vx = -0.5, vy = 0, g = g, home_x = o.x + 2, home_y = o.y + 2 }
    elseif o.name == "bee" then
      s.bees[#s.bees + 1] = { x0 = o.x, y0 = o.y, x = o.x, y = o.y,
                              range = tonumber(p.range) or 32, speed = tonumber(p.speed) or 0.05 }
    elseif o.name == "lift" then
      s.lifts[#s.lifts + 1] = { x0 = o.x, y0 = o.y, x = o.x, y = o.y, w = o.w, h = o.h,
                                axis = p.axis or "x", range = tonumber(p.range) or 64,
                                speed = tonumber(p.speed) or 0.5, off = 0, dir = 1, wait = LIFT_WAIT }
    elseif o.name == "flip" then
      s.flips[#s.flips + 1] = o
    elseif o.name == "goal" then
      s.goal = o
    end
  end
  log("platformer: stage " .. n .. " start, " .. #s.coins .. " coins, " .. #s.walkers ..
      " walkers, " .. #s.lifts .. " lifts")
  return s
end

-- Puts every enemy and lift back where the map placed it (after a lost life).
function stage.reset_things(s)
  for _, w in ipairs(s.walkers) do
    w.x, w.y, w.vx, w.vy, w.dead = w.home_x, w.home_y, -0.5, 0, false
  end
  for _, l in ipairs(s.lifts) do
    l.off, l.dir, l.wait, l.x, l.y = 0, 1, LIFT_WAIT, l.x0, l.y0
  end
end

-- Moves the lifts along their paths and registers them with the collision unit. Call before
-- moving anything that may ride them.
function stage.update_lifts(s)
  for i, l in ipairs(s.lifts) do
    local before = l.off
    if l.wait > 0 then
      l.wait = l.wait - 1
    else
      local target = l.dir > 0 and math.abs(l.range) or 0
      l.off = l.off + l.dir * l.speed
      if (l.dir > 0 and l.off >= target) or (l.dir < 0 and l.off <= 0) then
        l.off, l.dir, l.wait = target, -l.dir, LIFT_WAIT
      end
    end
    local sign = l.range < 0 and -1 or 1
    local d = (l.off - before) * sign
    local dx, dy = 0, 0
    if l.axis == "x" then
      l.x, dx = l.x0 + l.off * sign, d
    else
      l.y, dy = l.y0 + l.off * sign, d
    end
    col_platform(i, l.x, l.y, l.w, l.h, dx, dy)
  end
end

-- Gravity at the hero's centre: -1 inside a flip zone, else 1.
function stage.gravity_at(s, x, y)
  for _, z in ipairs(s.flips) do
    if x >= z.x and x < z.x + z.w and y >= z.y and y < z.y + z.h then return -1 end
  end
  return 1
end

-- Walkers patrol with the collision unit, turning at walls and at the edge of a drop;
-- bees fly a figure of eight over their spot.
function stage.update_enemies(s, t)
  for _, w in ipairs(s.walkers) do
    if not w.dead then
      local vx = w.vx
      w.vy = w.g * math.min(6, w.g * w.vy + 0.3)
      local flags = move_body(w, w.grounded and "ground" or "air",
                              { gravity = w.g < 0 and "up" or "down" })
      w.grounded = flags & COL.GROUND ~= 0
      if w.grounded then w.vy = 0 end
      local ahead = vx > 0 and w.x + w.w + 1 or w.x - 1
      local below = w.g > 0 and (w.y + w.h + 2) // 16 or (w.y - 3) // 16
      if flags & (COL.WALL_LEFT | COL.WALL_RIGHT) ~= 0
        or (w.grounded and col_get(ahead // 16, below) == "empty") then
        vx = -vx
      end
      w.vx = vx
    end
  end
  for i, b in ipairs(s.bees) do
    local a = t * b.speed + i
    b.x = b.x0 + math.sin(a) * b.range
    b.y = b.y0 + math.sin(a * 2) * 6
  end
end

-- Registers the stage's hitboxes (the hero's is added by the caller).
function stage.add_hitboxes(s)
  for i, c in ipairs(s.coins) do
    if not c.taken then hb_add(100 + i, stage.G_COIN, 0, c.x + 3, c.y + 2, 10, 12) end
  end
  for i, w in ipairs(s.walkers) do
    if not w.dead then hb_add(200 + i, stage.G_ENEMY, 0, w.x, w.y, w.w, w.h) end
  end
  for i, b in ipairs(s.bees) do
    if not b.dead then hb_add(400 + i, stage.G_ENEMY, 0, b.x // 1 + 2, b.y // 1 + 3, 12, 10) end
  end
  if s.goal then hb_add(300, stage.G_GOAL, 0, s.goal.x, s.goal.y, s.goal.w, s.goal.h) end
end

-- The enemy behind hitbox id `id`, or nil.
function stage.enemy(s, id)
  if id >= 400 then return s.bees[id - 400] end
  if id >= 200 and id < 300 then return s.walkers[id - 200] end
end

-- Follows the hero, a little ahead of where it faces, inside the map.
function stage.follow(s, h)
  local cam = s.cam
  local want_x = h.x - 123 + h.facing * 16
  cam.x = cam.x + (want_x - cam.x) * 0.15
  cam.y = cam.y + ((h.y - 128) - cam.y) * 0.2
  cam.x = math.max(0, math.min(s.cols * 16 - 256, cam.x))
  cam.y = math.max(-12, math.min(s.rows * 16 - 256, cam.y))
end

-- Draws the world's sprites from OAM slot `first` on; returns the next free slot.
function stage.draw(s, t, first)
  local cx, cy = s.cam.x // 1, s.cam.y // 1
  scroll(0, cx, cy)
  scroll(1, cx // s.def.parallax, cy // s.def.parallax)
  local slot = stage.slot
  local i = first
  local function put(x, y, tile, flags)
    local sx, sy = x // 1 - cx, y // 1 - cy
    if sx > -16 and sx < 256 and sy > -16 and sy < 256 then
      spr(i, sx, sy, tile, 2, 2, flags or 0)
    else
      spr_hide(i)
    end
    i = i + 1
  end
  -- A slot kept for a thing that is gone (a taken coin, a stomped enemy).
  local function skip()
    spr_hide(i)
    i = i + 1
  end
  for _, l in ipairs(s.lifts) do
    local last = l.w // 16 - 1
    for k = 0, last do
      -- The left end piece, and the mirrored right end when the lift is wider than a cell.
      put(l.x + k * 16, l.y, slot((k == last and k > 0) and 20 or 19))
    end
  end
  for _, c in ipairs(s.coins) do
    if c.taken then skip() else put(c.x, c.y, slot(15 + (t // 10) % 2)) end
  end
  for _, w in ipairs(s.walkers) do
    if w.dead then
      skip()
    else
      local flags = (w.vx > 0 and 1 or 0) | (w.g < 0 and 2 or 0)
      local dy = w.g < 0 and 0 or -2
      put(w.x - 2, w.y + dy, slot(11 + (t // 12) % 2), flags)
    end
  end
  for _, b in ipairs(s.bees) do
    if b.dead then skip() else put(b.x, b.y, slot(13 + (t // 4) % 2)) end
  end
  for _, z in ipairs(s.flips) do
    put(z.x - 16, z.y + z.h - 48, slot(21 + (t // 8) % 2))
  end
  return i
end

return stage
