-- Nova Lance: Kairo's bundled vertical shmup. One stage of enemy waves, a mid-boss and a
-- three-phase boss over a parallax space station. docs/shmup.md walks through the cart.
--
-- This file holds the screens (title, play, game over, stage clear) and the frame loop;
-- the game itself lives in game/*.lua:
--   core     state table, bullet types, trig tables, sprite allocator, sound, text
--   bg       the three background layers          player   the ship, shots, bombs
--   enemies  enemy list, targets, small enemies     bosses   mid-boss and boss
--   stage    the wave timeline                      fx       explosions and items
--   hud      HUD and screens                        art      tile numbers (generated)
--
-- Controls: d-pad moves, A shoots (hold), B bombs, X or Y held = focus (slow, narrow
-- shot, hit box shown). Start (or A) on the title plays; holding Select while pressing
-- Start plays in stress mode; Select during play toggles stress mode.

local C = require("game.core")
local BG = require("game.bg")
local FX = require("game.fx")
local P = require("game.player")
local E = require("game.enemies")
require("game.bosses")
local ST = require("game.stage")
local H = require("game.hud")
local G = C.G

local state = "title"
local state_t = 0          -- frames in the current state
local clear_bonus = 0

local function set_state(s)
  state, state_t = s, 0
end

-- Screens ---------------------------------------------------------------------------------

local function to_title()
  bu_clear()
  bu_player()
  E.reset()
  FX.reset()
  G.boss = nil
  backdrop(0x07061a)
  BG.show_station(false)
  music("title")
  set_state("title")
end

local function start_game(stress)
  G.score, G.lives, G.bombs, G.graze = 0, 3, 3, 0
  G.stress, G.stress_t, G.stress_level = stress, 0, 0
  G.boss, G.stage_clear, G.clear_t = nil, false, nil
  bu_clear()
  E.reset()
  FX.reset()
  P.reset()
  ST.reset()
  BG.reset()
  BG.show_station(true)
  C.sound("start")
  music("stage")
  log("shmup: start")
  set_state("play")
end

-- Stress mode: rings of bullets from random points, a few more every half second, until
-- the frame no longer fits the budget and the game slows down. The ship cannot be hit.
local function stress_update()
  if not G.stress then return end
  G.stress_t = G.stress_t + 1
  G.stress_level = math.min(32, 1 + G.stress_t // 30)
  for i = 1, G.stress_level do
    bu_ring(rndi(24, 232), rndi(30, 140), 12, 0.5 + rnd(1.0), i % 5, rnd(256))
  end
end

-- What the bullet unit found in its last run: shots that hit enemies, grazes, hits.
local function handle_events()
  local events = bu_events()
  local alive = P.alive()
  for i = 1, #events do
    local ev = events[i]
    local kind = ev.kind
    if kind == "shot" then
      E.shot(ev.target, ev.x, ev.y, ev.type)
    elseif kind == "graze" then
      if alive then
        G.graze = G.graze + 1
        G.score = G.score + 20
        C.sound("graze", 5)
      end
    elseif kind == "hit" and alive then
      P.hit()
      alive = P.alive()
    end
  end
end

local function play_update()
  if btnp("select") then
    G.stress, G.stress_t = not G.stress, 0
  end
  prof_begin("events")
  handle_events()
  prof_end()

  prof_begin("player")
  P.update()
  prof_end()

  prof_begin("stage")
  ST.update()
  prof_end()

  prof_begin("enemies")
  local touched = E.update(P.x, P.y, P.bomb > 25)
  if touched and P.alive() then P.hit() end
  prof_end()

  prof_begin("items")
  FX.update(P.x, P.y, P.alive())
  prof_end()

  prof_begin("stress")
  stress_update()
  prof_end()

  prof_begin("background")
  BG.update(P.x)
  prof_end()

  if G.lives <= 0 and P.dead == 0 then
    log("shmup: game over")
    bu_player()
    C.record_score()
    music("gameover")
    set_state("over")
  elseif G.stage_clear then
    G.clear_t = (G.clear_t or 0) + 1
    if G.clear_t >= 150 then
      G.clear_t = nil
      clear_bonus = G.graze * 50 + G.lives * 10000
      G.score = G.score + clear_bonus
      C.record_score()
      log("shmup: clear")
      music("clear")
      set_state("clear")
    end
  end
end

-- The frame -------------------------------------------------------------------------------

function init()
  -- Bombs, pause and menus act on a fresh press: no btnp auto-repeat.
  btnp_repeat(0)
  C.build_trig()
  C.define_bullets()
  BG.init()
  BG.show_station(false)
  music("title")
end

function update()
  state_t = state_t + 1
  if state == "title" then
    BG.update(128)
    if btnp("start") or btnp("a") then start_game(btn("select")) end
  elseif state == "play" then
    play_update()
  else
    -- Game over and stage clear: the background keeps moving, enemies finish what they
    -- were doing (with no ship to aim at) and items drift away.
    BG.update(P.x)
    E.update(-100, -100, false)
    FX.update(P.x, P.y, false)
    if state_t > 60 and btnp("start") or state_t > 600 then to_title() end
  end
end

function draw()
  C.sprites_begin()
  if state == "title" then
    prof_begin("hud")
    H.title(state_t)
    prof_end()
  else
    prof_begin("sprites")
    P.draw()
    E.draw()
    FX.draw()
    prof_end()
    prof_begin("hud")
    if state == "play" then
      H.play(ST.banner())
    elseif state == "over" then
      H.play()
      H.over(state_t)
    else
      H.play()
      H.clear(state_t, clear_bonus)
    end
    prof_end()
  end
  C.sprites_finish()
end
