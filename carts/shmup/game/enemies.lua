-- Enemies: the list, spawning, damage from the bullet unit's "shot" events, targets for
-- the shot tests (bu_target), and the small enemy kinds. The mid-boss and the boss are
-- defined in game/bosses.lua with the same interface.
--
-- A kind is a table: tile, size (tiles per side), frames and anim (frames per picture),
-- w and h (hit box), hp, score, gems (items dropped), think(e) (moves and fires, called
-- once a frame), and optionally draw(e), die(e), targetable(e).

local C = require("game.core")
local FX = require("game.fx")
local art = require("game.art")
local G, T, SIN, COS = C.G, C.T, C.SIN, C.COS

local E = {}
E.kinds = {}
E.list = {}
local by_id = {}
local next_id = 1

function E.reset()
  E.list, by_id, next_id = {}, {}, 1
end

function E.spawn(kind, x, y, params)
  local def = E.kinds[kind]
  local e = { kind = kind, def = def, x = x, y = y, hp = def.hp, t = 0, delay = 0,
              id = next_id, flash = 0, dx = 0, dy = 0 }
  next_id = next_id + 1
  if params then
    for k, v in pairs(params) do e[k] = v end
  end
  E.list[#E.list + 1] = e
  by_id[e.id] = e
  if def.init then def.init(e) end
  return e
end

-- Removes an enemy without a kill (it left the screen); its pattern stops too.
function E.remove(e)
  e.gone = true
  by_id[e.id] = nil
  if e.src then bu_source_stop(e.src) end
end

function E.kill(e)
  local def = e.def
  E.remove(e)
  G.score = G.score + def.score
  for _ = 1, def.gems do FX.item(e.x + rndi(-8, 8), e.y + rndi(-8, 8), "gem") end
  if def.die then
    def.die(e)
  else
    FX.boom(e.x, e.y, def.size >= 4)
    C.sound("explode", 2)
  end
end

function E.damage(e, amount)
  if e.gone or e.hp <= 0 then return end
  e.hp = e.hp - amount
  e.flash = 2
  if e.hp <= 0 then
    if e.def.on_zero then e.def.on_zero(e) else E.kill(e) end
  end
end

-- A player shot hit target `id` (from bu_events).
function E.shot(id, x, y, kind)
  local e = by_id[id]
  if not e then return end
  E.damage(e, kind == T.shot_focus and 1.25 or 1)
  FX.spark(x, y - 2)
  C.sound("hit", 4)
end

local function targetable(e)
  if e.def.targetable then return e.def.targetable(e) end
  return e.y > -8 and e.y < 256 and e.x > -8 and e.x < 264
end

-- Moves every enemy, lets it fire, registers its box for this frame's shot tests and
-- tells whether any touched the ship at (px, py). `bombing`: a bomb is burning.
function E.update(px, py, bombing)
  local touched = false
  local list, n = E.list, 0
  for i = 1, #list do
    local e = list[i]
    if not e.gone then
      if e.delay > 0 then
        e.delay = e.delay - 1
      else
        local ox, oy = e.x, e.y
        e.t = e.t + 1
        e.def.think(e, px, py)
        e.dx, e.dy = e.x - ox, e.y - oy
        if e.flash > 0 then e.flash = e.flash - 1 end
        if not e.gone and targetable(e) then
          local def = e.def
          local hw, hh = def.w / 2, def.h / 2
          -- A burning bomb hurts everything on screen (in steps, so the flash flickers).
          if bombing and e.t % 4 == 0 then E.damage(e, (def.bomb_damage or 1) * 4) end
          if not e.gone then
            bu_target(e.id, e.x - hw, e.y - hh, def.w, def.h, e.dx, e.dy)
            if math.abs(e.x - px) < hw and math.abs(e.y - py) < hh then touched = true end
          end
        end
        -- Gone for good once it has left the screen.
        if e.t > 30 and (e.y > 290 or e.y < -90 or e.x < -60 or e.x > 316) then
          E.remove(e)
        end
      end
    end
    if not e.gone then
      n = n + 1
      list[n] = e
    end
  end
  for i = n + 1, #list do list[i] = nil end
  return touched
end

function E.draw()
  for i = 1, #E.list do
    local e = E.list[i]
    if e.delay <= 0 then
      local def = e.def
      local pal = e.flash > 0 and C.PAL_FLASH or (def.pal or C.PAL_ENEMY)
      if def.draw then
        def.draw(e, pal)
      else
        local f = (e.t // def.anim) % def.frames
        local half = def.size * 4
        C.put("enemy", def.tile + f * def.size, e.x - half, e.y - half, def.size, pal)
      end
    end
  end
end

-- Movement helpers ------------------------------------------------------------------------

-- Flies along angle e.ang (256 steps) at e.spd, turning by e.turn a frame between
-- e.turn_at and e.turn_at + e.turn_len.
local function fly(e)
  if e.turn ~= 0 and e.t >= e.turn_at and e.t < e.turn_at + e.turn_len then
    e.ang = e.ang + e.turn
  end
  local a = (e.ang // 1) % 256
  e.x = e.x + COS[a] * e.spd
  e.y = e.y + SIN[a] * e.spd
end

-- Eases down to e.stop_y; true once there.
local function arrive(e)
  if e.y < e.stop_y - 0.5 then
    e.y = e.y + math.max(0.5, (e.stop_y - e.y) * 0.06)
    return false
  end
  return true
end

-- The small enemies ---------------------------------------------------------------------

-- Dart: swoops in along a curve and fires one aimed shot.
E.kinds.dart = {
  tile = art.dart, size = 2, frames = 2, anim = 4, w = 12, h = 12, hp = 3, score = 100, gems = 1,
  think = function(e)
    fly(e)
    if e.t == e.fire_at and e.y > 0 and e.y < 170 then bu_aim(e.x, e.y + 6, 1.8, T.pink) end
  end,
}

-- Saucer: popcorn on a sine wave; some fire a slow aimed shot.
E.kinds.saucer = {
  tile = art.saucer, size = 2, frames = 4, anim = 5, w = 14, h = 10, hp = 2, score = 50, gems = 1,
  think = function(e)
    e.y = e.y + e.vy
    e.x = e.x0 + e.amp * SIN[(e.t * e.freq + e.phase) // 1 % 256]
    if e.t == e.fire_at and e.y > 0 then bu_aim(e.x, e.y + 4, 1.4, T.amber) end
  end,
}

-- Pod: drops in, fires aimed 5-way fans of long bullets, then backs away.
E.kinds.pod = {
  tile = art.pod, size = 2, frames = 2, anim = 24, w = 14, h = 14, hp = 16, score = 300, gems = 3,
  think = function(e)
    if e.leaving then
      e.y = e.y - 1.2
    elseif arrive(e) then
      e.wait = (e.wait or 20) - 1
      if e.wait <= 0 then
        bu_nway(e.x, e.y + 6, nil, 5, 12, 1.6, T.lblue)
        e.volleys = (e.volleys or 0) + 1
        e.wait = 70
        if e.volleys >= 3 then e.leaving = true end
      end
    end
  end,
}

-- Spinner: stops and sprays a three-armed spiral (bu_spiral), then leaves downward.
E.kinds.spinner = {
  tile = art.spinner, size = 2, frames = 4, anim = 3, w = 14, h = 14, hp = 20, score = 400, gems = 3,
  think = function(e)
    if e.leaving then
      e.y = e.y + 1.1
      e.x = e.x + e.drift
    elseif arrive(e) then
      e.spin = (e.spin or 0) + 1
      if e.spin % 6 == 0 and e.spin > 20 then bu_spiral(e.x, e.y, 3, 1.3, T.violet, 2.2) end
      if e.spin >= 150 then e.leaving = true end
    end
  end,
}

-- Gunship: a 32 px heavy that runs the BulletML pattern gunship_ring (blooming rings) and
-- fires aimed triples of long bullets, then climbs away when the pattern ends.
E.kinds.gunship = {
  tile = art.gunship, size = 4, frames = 1, anim = 1, w = 28, h = 24, hp = 70, score = 1500,
  gems = 6, bomb_damage = 0.5,
  think = function(e)
    if e.leaving then
      e.y = e.y - 0.8
    elseif arrive(e) then
      if not e.src then e.src = bu_pattern("gunship_ring", e.x, e.y + 4, T.green) end
      e.fired = (e.fired or 0) + 1
      if e.fired % 60 == 30 then bu_nway(e.x, e.y + 12, nil, 3, 9, 2.0, T.lamber) end
      if not bu_source(e.src, e.x, e.y + 4) then
        e.src = nil
        e.leaving = true
      end
    end
  end,
}

return E
