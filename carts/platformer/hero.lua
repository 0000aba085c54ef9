-- The hero: input to velocity, then one move_body call a frame. Everything about terrain,
-- slopes, ladders, one-way floors, ice, lifts and upside-down gravity is the collision
-- unit's job; this file only decides how fast the hero wants to go.
--
-- Feel, in pixels per frame: acceleration and friction (low on ice), a jump whose height
-- depends on how long A is held, coyote time (jump a few frames after walking off a ledge)
-- and jump buffering (press A a few frames before landing).

local hero = {}

hero.ACCEL, hero.MAX_RUN = 0.2, 2.0
hero.FRICTION, hero.ICE_FRICTION = 0.25, 0.03
hero.GRAVITY, hero.MAX_FALL = 0.3, 6
hero.JUMP, hero.JUMP_CUT = -5.0, -1.5
hero.COYOTE, hero.BUFFER, hero.CLIMB = 5, 5, 1.25

-- A new hero standing with its feet at (x, y), played with pad `pad` (0: player 1).
function hero.new(x, y, pad)
  return { x = x - 5, y = y - 15, w = 10, h = 15, vx = 0, vy = 0, g = 1, pad = pad or 0,
           mode = "air", facing = 1, coyote = 0, buffer = 0, anim = 0, hurt = 0 }
end

-- Turns gravity to point down (g = 1) or up (g = -1); the hero falls towards it.
function hero.set_gravity(h, g)
  if h.g ~= g then
    h.g, h.mode, h.vy, h.coyote = g, "air", 0, 0
    sfx("flip")
  end
end

-- One frame of input and movement. Returns the move's flags.
function hero.update(h)
  local g, pad = h.g, h.pad
  local dir = (btn("right", pad) and 1 or 0) - (btn("left", pad) and 1 or 0)
  h.buffer = btnp("a", pad) and hero.BUFFER or math.max(0, h.buffer - 1)

  if h.mode == "ladder" then
    h.vx = dir * 0.75
    h.vy = ((btn("down", pad) and 1 or 0) - (btn("up", pad) and 1 or 0)) * hero.CLIMB
    if h.buffer > 0 then
      h.mode, h.vy, h.buffer = "air", hero.JUMP * 0.8, 0
      sfx("jump")
    end
  else
    local friction = h.on_ice and hero.ICE_FRICTION or hero.FRICTION
    if dir ~= 0 then
      h.vx = math.max(-hero.MAX_RUN, math.min(hero.MAX_RUN, h.vx + dir * hero.ACCEL))
      h.facing = dir
    elseif h.vx > 0 then
      h.vx = math.max(0, h.vx - friction)
    else
      h.vx = math.min(0, h.vx + friction)
    end
    -- Velocity along gravity ("fall") is g * vy.
    local fall = math.min(hero.MAX_FALL, g * h.vy + hero.GRAVITY)
    if h.buffer > 0 and (h.mode == "ground" or h.coyote > 0) then
      fall, h.mode, h.coyote, h.buffer = hero.JUMP, "air", 0, 0
      sfx("jump")
    end
    -- Let go of A while rising fast and the jump is cut short.
    if h.mode == "air" and fall < hero.JUMP_CUT and not btn("a", pad) then
      fall = hero.JUMP_CUT
    end
    h.vy = g * fall
  end

  local drop = h.mode == "ground" and btn("down", pad) and h.on_oneway
  local vx = h.vx
  local flags = move_body(h, h.mode, { drop = drop, slope_speed = true,
                                       gravity = g < 0 and "up" or "down" })
  -- move_body writes back the distance moved; keep the hero's own run speed unless a wall
  -- stopped it (so it never sticks to walls: the speed is simply gone).
  h.vx = (flags & (COL.WALL_LEFT | COL.WALL_RIGHT) ~= 0) and 0 or vx

  h.on_ice = flags & COL.ON_ICE ~= 0
  h.on_oneway = flags & COL.ON_ONEWAY ~= 0
  if flags & COL.CEILING ~= 0 and g * h.vy < 0 then h.vy = 0 end
  if h.mode == "ladder" then
    if flags & COL.ON_LADDER == 0 or (flags & COL.GROUND ~= 0 and btn("down", pad)) then
      h.mode, h.vy = "ground", 0
    end
  elseif flags & COL.GROUND ~= 0 then
    h.mode, h.vy, h.coyote = "ground", 0, hero.COYOTE
    if btn("down", pad) and flags & COL.LADDER_TOP ~= 0 then h.mode = "ladder" end
  else
    if h.mode == "ground" then h.mode = "air" end
    h.coyote = math.max(0, h.coyote - 1)
  end
  if btn("up", pad) and flags & COL.ON_LADDER ~= 0 and h.mode ~= "ladder" and g > 0 then
    h.mode, h.vx = "ladder", 0
  end
  if h.mode == "ladder" and dir == 0 then
    -- Centre on the ladder's column, so the hero climbs past the floor it leads through.
    local centre = ((h.x + h.w / 2) // 16) * 16 + 8 - h.w / 2
    h.x = h.x + math.max(-1, math.min(1, centre - h.x))
  end
  h.anim = (math.abs(h.vx) > 0.1 and h.mode == "ground") and h.anim + 1 or 0
  h.hurt = math.max(0, h.hurt - 1)
  return flags
end

-- The hero's art: an Aseprite file whose tags are its poses (see cart.toml).
local ART = "gfx/hero.aseprite"

-- The sprite tile of the hero's current pose, played from the file's tags at its frame
-- durations (`t` counts machine frames).
function hero.pose(h, t)
  if h.mode == "ladder" then
    -- The climb follows the hero's height rather than the clock: a frame per 6 px (its
    -- frames last 6 machine frames each).
    return (sheet_anim(ART, "climb", (h.y // 6) * 6))
  elseif h.mode == "air" then
    return (sheet_anim(ART, h.g * h.vy < 0 and "jump" or "fall", 0))
  elseif h.anim > 0 then
    return (sheet_anim(ART, "run", h.anim))
  end
  return (sheet_anim(ART, "idle", t))
end

return hero
