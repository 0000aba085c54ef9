-- The mid-boss and the boss, as enemy kinds (see game/enemies.lua for the interface).
-- Their bullets come from BulletML patterns in patterns/*.xml, started with bu_pattern
-- and moved with the boss every frame through bu_source, plus a few emitters from Lua
-- (bu_nway, bu_aim, bu_burst). The boss has three phases, changed at HP thresholds.

local C = require("game.core")
local E = require("game.enemies")
local FX = require("game.fx")
local art = require("game.art")
local G, T, SIN = C.G, C.T, C.SIN

local B = {}

local function ease(t)                   -- 0..1 -> 0..1, slowing down at the end
  local u = 1 - t
  return 1 - u * u * u
end

local function cancel_to_items()
  local n, positions = bu_cancel()
  if n > 0 then FX.items_from(positions) end
end

-- Mid-boss ------------------------------------------------------------------------------

local MID_TIME = 1500                    -- frames it fights before it gives up and leaves

E.kinds.midboss = {
  size = 8, w = 56, h = 26, hp = 360, score = 10000, gems = 10, bomb_damage = 0.5, pal = C.PAL_BOSS,
  init = function(e)
    e.state = "enter"
    G.boss = e
    log("shmup: midboss")
  end,
  targetable = function(e) return e.state == "fight" end,
  think = function(e)
    if e.state == "enter" then
      e.y = -30 + 94 * ease(math.min(1, e.t / 90))
      if e.t >= 90 then
        e.state, e.ft = "fight", 0
        e.src = bu_pattern("midboss_fan", e.x, e.y + 10, T.pink)
        C.dbg("midboss fight")
      end
    elseif e.state == "fight" then
      e.ft = e.ft + 1
      e.x = 128 + 56 * SIN[(e.ft // 2) % 256]
      bu_source(e.src, e.x, e.y + 10)
      -- A spread burst: a ring of 48 over 4 frames, so its spawn cost is spread too.
      if e.ft % 150 == 75 then bu_burst(e.x, e.y + 8, 48, 1.1, T.blue, 4, rnd(256)) end
      if e.ft >= MID_TIME then
        C.dbg("midboss left")
        e.state = "leave"
        bu_source_stop(e.src)
        e.src = nil
      end
    else
      e.y = e.y - 1.5
      if e.y < -40 then
        E.remove(e)
        G.boss = nil
      end
    end
  end,
  draw = function(e, pal)
    C.put("enemy", art.midboss, e.x - 32, e.y - 16, 4, pal)
    C.put("enemy", art.midboss, e.x, e.y - 16, 4, pal, 1)
  end,
  die = function(e)
    C.dbg("midboss down")
    G.boss = nil
    cancel_to_items()
    FX.burst(e.x, e.y, 8, 26, 4, true)
    C.sound("bigboom")
  end,
}

-- Boss ----------------------------------------------------------------------------------

local BOSS_HP = 1800
local PHASE_AT = { 1200, 600 }           -- HP that starts phase 2, phase 3
local PATTERN = { "boss_cross", "boss_spiral", "boss_flower" }
local PATTERN_TYPE = { T.pink, T.violet, T.bigred }

local function wing_guns(e)
  -- Muzzles under the two wing pods (each pod is 32 px, beside the 64 px core).
  return e.x - 50, e.y + 16, e.x + 50, e.y + 16
end

local function start_phase(e, n)
  e.phase, e.state, e.ft = n, "fight", 0
  e.src = bu_pattern(PATTERN[n], e.x, e.y, PATTERN_TYPE[n])
  log("shmup: boss phase " .. n)
  C.dbg("phase", n)
end

-- HP reached a threshold: the pattern stops, the bullets turn into items and the boss
-- pauses before the next phase. Phase 3 blows the wing pods off.
local function end_phase(e)
  bu_source_stop(e.src)
  e.src = nil
  cancel_to_items()
  e.state, e.ft = "transition", 0
  C.dbg("transition")
  C.sound("bigboom")
  if e.phase == 2 then
    FX.burst(e.x - 48, e.y, 5, 14, 3, true)
    FX.burst(e.x + 48, e.y, 5, 14, 3, true)
  else
    FX.burst(e.x, e.y, 6, 24, 2, false)
  end
end

local function fire_phase(e)
  local ft = e.ft
  if e.phase == 1 then
    e.x = 128 + 40 * SIN[(ft // 2) % 256]
    if ft % 100 == 50 then
      local lx, ly, rx, ry = wing_guns(e)
      bu_nway(lx, ly, nil, 3, 10, 1.8, T.lblue)
      bu_nway(rx, ry, nil, 3, 10, 1.8, T.lblue)
    end
  elseif e.phase == 2 then
    e.x = 128 + 24 * SIN[ft % 256]
    if ft % 40 == 20 then
      local lx, ly, rx, ry = wing_guns(e)
      if (ft // 40) % 2 == 0 then bu_aim(lx, ly, 2.2, T.lamber) else bu_aim(rx, ry, 2.2, T.lamber) end
    end
  else
    e.x = 128 + 50 * SIN[(ft * 3 // 2) % 256]
    e.y = 68 + 10 * SIN[(ft * 3) % 256]
    if ft % 100 == 50 then bu_burst(e.x, e.y + 8, 40, 1.0, T.green, 4, rnd(256)) end
  end
  bu_source(e.src, e.x, e.y)
end

E.kinds.boss = {
  size = 8, w = 52, h = 44, hp = BOSS_HP, score = 50000, gems = 20, bomb_damage = 0.4,
  pal = C.PAL_BOSS,
  init = function(e)
    e.state, e.phase = "enter", 0
    G.boss = e
    log("shmup: boss")
  end,
  targetable = function(e) return e.state == "fight" end,
  on_zero = function(e)
    -- Not a plain kill: the boss burns for a while first.
    bu_source_stop(e.src)
    e.src = nil
    cancel_to_items()
    e.state, e.ft = "dying", 0
    C.dbg("boss down")
  end,
  think = function(e)
    if e.state == "enter" then
      e.y = -80 + 148 * ease(math.min(1, e.t / 180))
      if e.t >= 180 then start_phase(e, 1) end
    elseif e.state == "fight" then
      e.ft = e.ft + 1
      fire_phase(e)
      if e.phase < 3 and e.hp <= PHASE_AT[e.phase] then end_phase(e) end
    elseif e.state == "transition" then
      e.ft = e.ft + 1
      e.x = e.x + (128 - e.x) * 0.05
      if e.ft >= 60 then start_phase(e, e.phase + 1) end
    elseif e.state == "dying" then
      -- Sinks and shakes while explosions break out all over the hull.
      e.ft = e.ft + 1
      e.y = e.y + 0.15
      e.x = 128 + rndi(-2, 2)
      if e.ft % 3 == 0 then
        FX.boom(e.x + rndi(-40, 40), e.y + rndi(-30, 30), e.ft % 12 == 0)
        C.sound("explode", 6)
      end
      if e.ft >= 150 then
        E.kill(e)
        G.stage_clear = true
      end
    end
  end,
  draw = function(e, pal)
    if e.state == "dying" and (e.ft // 2) % 2 == 0 then pal = C.PAL_FLASH end
    C.put("enemy", art.boss, e.x - 32, e.y - 32, 8, pal)
    -- The wing pods blow off when phase 2 ends.
    if e.phase < 2 or (e.phase == 2 and e.state ~= "transition") then
      C.put("enemy", art.boss_wing, e.x - 64, e.y - 16, 4, pal)
      C.put("enemy", art.boss_wing, e.x + 32, e.y - 16, 4, pal, 1)
    end
  end,
  die = function(e)
    G.boss = nil
    FX.burst(e.x, e.y, 10, 36, 3, true)
    C.sound("bigboom")
  end,
}

function B.boss_hp()
  local b = G.boss
  if not b then return nil end
  return math.max(0, b.hp) / b.def.hp, b.kind
end

return B
