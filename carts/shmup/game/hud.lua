-- The HUD and the full screens (title, game over, stage clear). Text is overlay drawing
-- (print, rectfill), which lasts one frame; the life and bomb icons are sprites at
-- priority 3, in front of the bullets.

local C = require("game.core")
local art = require("game.art")
local B = require("game.bosses")
local G = C.G

local H = {}

-- Score, hi-score, graze counter, lives, bombs, stress state and the boss's health.
function H.play(banner1, banner2)
  C.text("SC", 4, 3, C.GOLD)
  C.text(C.digits(G.score, 8), 24, 3, C.WHITE)
  C.text("HI", 4, 13, C.GREY)
  C.text(C.digits(math.max(G.score, G.hiscore), 8), 24, 13, C.GREY)
  C.text("GRAZE", 104, 3, C.CYAN)
  C.text(tostring(G.graze), 152, 3, C.WHITE)
  for i = 1, math.min(G.lives, 6) do
    C.put("hud", art.life, 250 - i * 10, 3, 1, C.PAL_PLAYER, 0, 3)
  end
  for i = 1, math.min(G.bombs, 6) do
    C.put("hud", art.bomb, 250 - i * 10, 13, 1, C.PAL_PLAYER, 0, 3)
  end
  if G.stress then
    local live = bu_count()
    rectfill(102, 12, 190, 21, C.INK)
    C.text("STRESS L" .. G.stress_level .. " " .. live, 104, 13, C.RED)
  end
  local hp, kind = B.boss_hp()
  if hp then
    C.text(kind == "boss" and "BOSS" or "MID", 4, 24, C.RED)
    rect(40, 25, 251, 30, C.INK)
    rectfill(41, 26, 41 + math.floor(209 * hp), 29, hp > 0.34 and C.ORANGE or C.RED)
  end
  if banner1 then
    rectfill(0, 100, 255, 125, C.PANEL)
    C.ctext(banner1, 104, (frame() // 8) % 2 == 0 and C.GOLD or C.WHITE)
    C.ctext(banner2, 115, C.GREY)
  end
end

function H.title(t)
  -- The logo: two 128 x 32 bands of the logo sheet, four 32 px sprites each.
  local bob = C.SIN[(t * 2) % 256] * 2
  for row = 0, 1 do
    for k = 0, 3 do
      C.put("enemy", art.logo1 + row * 64 + k * 4, 64 + k * 32, 36 + row * 34 + bob, 4, C.PAL_FX, 0, 3)
    end
  end
  C.ctext("HI " .. C.digits(G.hiscore, 8), 116, C.GREY)
  if (t // 30) % 2 == 0 then C.ctext("PRESS START", 136, C.GOLD) end
  -- Pad buttons, then the default keys.
  local x = 48
  C.text("MOVE   D-PAD / ARROWS", x, 158, C.WHITE)
  C.text("SHOOT  A / Z  (HOLD)", x, 168, C.WHITE)
  C.text("BOMB   B / X", x, 178, C.WHITE)
  C.text("FOCUS  X / A  (HOLD)", x, 188, C.WHITE)
  C.ctext("STRESS: HOLD SELECT + START", 206, C.VIOLET)
  C.ctext("(SHIFT + ENTER)", 216, C.VIOLET)
  C.ctext("KAIRO TEAM 2025", 238, C.GREY)
end

function H.over(t)
  rectfill(0, 96, 255, 143, C.PANEL)
  C.ctext("GAME OVER", 104, C.RED)
  C.ctext("SCORE " .. C.digits(G.score, 8), 118, C.WHITE)
  if t > 60 and (t // 30) % 2 == 0 then C.ctext("PRESS START", 130, C.GOLD) end
end

function H.clear(t, bonus)
  rectfill(0, 80, 255, 163, C.PANEL)
  C.ctext("STAGE CLEAR!", 88, C.GOLD)
  C.ctext("GRAZE " .. G.graze .. "  LIVES " .. G.lives, 104, C.CYAN)
  C.ctext("BONUS " .. C.digits(bonus, 8), 118, C.WHITE)
  C.ctext("SCORE " .. C.digits(G.score, 8), 132, C.WHITE)
  if t > 60 and (t // 30) % 2 == 0 then C.ctext("PRESS START", 148, C.GOLD) end
end

return H
