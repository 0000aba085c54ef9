-- Stage 1 as a timeline: at each stage frame, a formation enters. The stage clock stops
-- while the mid-boss is on screen, so the waves after it never pile up on top of it.

local C = require("game.core")
local E = require("game.enemies")
local BG = require("game.bg")
local G = C.G

local S = {}

-- Formations --------------------------------------------------------------------------

-- n darts enter at x0 one after another and curve away; dir = 1 curves to the right.
local function swoop(x0, n, dir)
  for i = 0, n - 1 do
    E.spawn("dart", x0, -12, { delay = i * 9, ang = 64, spd = 2.0, turn = -1.1 * dir,
                               turn_at = 45, turn_len = 45, fire_at = 28 + i * 3 })
  end
end

-- A V of n darts flying straight down, the leader first.
local function vee(cx, n)
  for i = 0, n - 1 do
    local k = i - (n - 1) / 2
    local back = math.abs(k)
    E.spawn("dart", cx + k * 18, -12 - back * 14, { ang = 64, spd = 1.3, turn = 0,
                                                    turn_at = 0, turn_len = 0, fire_at = 70 + back * 8 })
  end
end

-- A column of n saucers weaving around x0; every `every`-th one fires.
local function weave(x0, n, amp, every)
  for i = 0, n - 1 do
    E.spawn("saucer", x0, -12, { delay = i * 14, x0 = x0, amp = amp, freq = 2, phase = i * 20,
                                 vy = 1.1, fire_at = (i % every == 0) and 55 or -1 })
  end
end

local function pod(x, stop_y) E.spawn("pod", x, -12, { stop_y = stop_y }) end
local function spinner(x, stop_y) E.spawn("spinner", x, -12, { stop_y = stop_y, drift = x < 128 and -0.4 or 0.4 }) end
local function gunship(x, stop_y) E.spawn("gunship", x, -24, { stop_y = stop_y }) end

-- The timeline ----------------------------------------------------------------------------

local WARNING_AT, BOSS_AT = 3440, 3620

local timeline = {
  { 100, function() swoop(56, 5, 1) end },
  { 280, function() swoop(200, 5, -1) end },
  { 460, function() weave(128, 6, 70, 2) end },
  { 700, function() pod(64, 56) pod(192, 56) end },
  { 940, function() vee(128, 7) end },
  { 1120, function() gunship(128, 64) end },
  { 1220, function() weave(56, 4, 30, 4) weave(200, 4, 30, 4) end },
  { 1450, function() spinner(72, 70) spinner(184, 70) end },
  { 1700, function() E.spawn("midboss", 128, -30) end },
  { 1760, function() swoop(48, 4, 1) swoop(208, 4, -1) end },
  { 1950, function() pod(48, 50) pod(128, 70) pod(208, 50) end },
  { 2200, function() gunship(80, 60) gunship(176, 60) end },
  { 2460, function() weave(64, 5, 40, 2) weave(192, 5, 40, 2) end },
  { 2520, function() spinner(128, 60) end },
  { 2750, function() vee(80, 5) vee(176, 5) end },
  { 2950, function() pod(64, 60) pod(192, 60) swoop(128, 5, 1) end },
  { 3160, function() spinner(56, 64) spinner(128, 84) spinner(200, 64) end },
  { 3380, function() BG.open = true end },
  { WARNING_AT, function() music() C.sound("warning") end },
  { BOSS_AT, function() E.spawn("boss", 128, -80) music("boss") end },
}

local next_event = 1
S.t = 0

function S.reset()
  S.t, next_event = 0, 1
end

function S.update()
  if G.boss and G.boss.kind == "midboss" then return end
  S.t = S.t + 1
  local ev = timeline[next_event]
  while ev and ev[1] <= S.t do
    ev[2]()
    next_event = next_event + 1
    ev = timeline[next_event]
  end
end

-- Banner text for the HUD, or nil.
function S.banner()
  if S.t < 150 then return "STAGE 1", "STATION ORBIT" end
  if S.t >= WARNING_AT and S.t < BOSS_AT then return "WARNING", "A HUGE ENEMY APPROACHES" end
  return nil
end

return S
