-- The player's ship: 8-way movement with a slow focus mode, shots fired through the
-- bullet unit (bu_shot), bombs that cancel bullets into items, and getting hit.

local C = require("game.core")
local art = require("game.art")
local FX = require("game.fx")
local G = C.G

local P = {}

local SPEED, FOCUS_SPEED = 2.5, 1.2
local HIT, GRAZE = 1, 11          -- half sizes of the hit and graze boxes (bu_player)
local START_X, START_Y = 128, 224
local RESPAWN, INVULN_RESPAWN, INVULN_BOMB = 60, 150, 130
local BOMB_TIME = 100

P.x, P.y = START_X, START_Y

function P.reset()
  P.x, P.y = START_X, START_Y
  P.dead = 0            -- frames until the ship comes back (0: alive)
  P.invuln = INVULN_RESPAWN
  P.cooldown = 0
  P.volley = 0
  P.bank = 0
  P.focus = false
  P.bomb = 0            -- frames of bomb left
end

-- Hit by a bullet or an enemy: lose a life, clear the screen of bullets, respawn later.
function P.hit()
  if P.dead > 0 or P.invuln > 0 or G.stress then return end
  if C.GOD then log("dbg god hit", frame()) return end
  G.lives = G.lives - 1
  log("shmup: life lost (lives " .. G.lives .. ")")
  if C.DEBUG then log("dbg hit frame", frame(), "at", P.x // 1, P.y // 1) end
  C.sound("playerhit")
  FX.burst(P.x, P.y, 6, 14, 3, false)
  FX.boom(P.x, P.y, true)
  bu_cancel()
  P.dead = RESPAWN
  P.bomb = 0
  backdrop(0x07061a)
  if G.lives > 0 then G.bombs = math.max(G.bombs, 3) end
end

local function start_bomb()
  G.bombs = G.bombs - 1
  P.bomb = BOMB_TIME
  P.invuln = math.max(P.invuln, INVULN_BOMB)
  C.sound("bomb")
end

-- While the bomb lasts it cancels every bullet into items and throws rings of fire
-- outward from the ship. Enemy damage is done by the enemies module (P.bomb > 0).
local function run_bomb()
  P.bomb = P.bomb - 1
  if P.bomb > 25 then
    local n, positions = bu_cancel()
    if n > 0 then FX.items_from(positions) end
  end
  local age = BOMB_TIME - P.bomb
  if age % 6 == 1 and age < 60 then
    local r = 12 + age * 2.2
    for i = 0, 7 do
      local a = (i * 32 + age * 5) % 256
      FX.boom(P.x + C.COS[a] * r, P.y + C.SIN[a] * r, age > 20)
    end
  end
  -- The backdrop flashes for the first frames.
  backdrop(age < 8 and (age % 4 < 2 and 0xf0e0ff or 0x603070) or 0x07061a)
end

local function fire()
  local x, y = P.x, P.y - 8
  if P.focus then
    -- Focused: three shots packed together, for bosses.
    bu_shot(x - 5, y, 192, 10, C.T.shot_focus)
    bu_shot(x, y - 4, 192, 10, C.T.shot_focus)
    bu_shot(x + 5, y, 192, 10, C.T.shot_focus)
  else
    -- Spread: a twin stream plus two angled shots every other volley.
    bu_shot(x - 4, y, 192, 9, C.T.shot)
    bu_shot(x + 4, y, 192, 9, C.T.shot)
    if P.volley % 2 == 0 then
      bu_shot(x - 8, y + 4, 182, 8, C.T.shot)
      bu_shot(x + 8, y + 4, 202, 8, C.T.shot)
    end
  end
  P.volley = P.volley + 1
  C.sound("shot", 8)
end

function P.update()
  if P.bomb > 0 then run_bomb() end
  if P.dead > 0 then
    P.dead = P.dead - 1
    if P.dead == 0 then
      if G.lives <= 0 then return end
      P.x, P.y = START_X, START_Y
      P.invuln = INVULN_RESPAWN
    end
    bu_player(START_X, START_Y, HIT, GRAZE)
    return
  end
  if P.invuln > 0 then P.invuln = P.invuln - 1 end

  -- Movement: 8 directions, diagonals scaled so every direction has the same speed.
  local dx = (btn("right") and 1 or 0) - (btn("left") and 1 or 0)
  local dy = (btn("down") and 1 or 0) - (btn("up") and 1 or 0)
  P.focus = btn("x") or btn("y")
  local s = P.focus and FOCUS_SPEED or SPEED
  if dx ~= 0 and dy ~= 0 then s = s * 0.7071 end
  P.x = C.clamp(P.x + dx * s, 8, 248)
  P.y = C.clamp(P.y + dy * s, 20, 246)
  P.bank = dx

  if P.cooldown > 0 then P.cooldown = P.cooldown - 1 end
  if btn("a") and P.cooldown == 0 then
    fire()
    P.cooldown = 4
  end
  if btnp("b") and G.bombs > 0 and P.bomb == 0 then start_bomb() end

  -- Tell the bullet unit where the ship is: its tiny hit box and the graze box.
  bu_player(P.x, P.y, HIT, GRAZE)
end

function P.alive()
  return P.dead == 0 and G.lives > 0
end

function P.draw()
  if P.dead > 0 or G.lives <= 0 then return end
  -- Blink while invulnerable.
  if P.invuln > 0 and (frame() // 3) % 2 == 0 then return end
  local tile = P.bank < 0 and art.ship_left or (P.bank > 0 and art.ship_right or art.ship)
  if P.focus then
    C.put("player", art.hitbox, P.x - 4, P.y - 4, 1, C.PAL_PLAYER, 0, 3)
  end
  C.put("player", tile, P.x - 8, P.y - 8, 2, C.PAL_PLAYER)
  local flame = (frame() // 2) % 2 == 0 and art.flame or art.flame2
  C.put("player", flame, P.x - 4, P.y + 7, 1, C.PAL_PLAYER)
end

return P
