-- For the GIF tests: a bar that moves every frame, drawn in palette 1 colour 1, which is red,
-- turns green at frame 200 and blue at frame 450; the backdrop (palette entry 0) steps to a
-- new colour every 30 frames, and a strip at the top cycles through the 15 colours of
-- palette 2 (set once) every frame. A GIF of it must show every colour as it was on screen.
function init()
  pal(1, 1, 0xff0000)
  for c = 1, 15 do
    pal(2, c, c * 0x101010 + 0x000f00)
  end
end

function update()
end

function draw()
  local f = frame()
  backdrop((f // 30) * 0x2a1f13 & 0xffffff)
  if f == 200 then
    pal(1, 1, 0x00ff00)
  elseif f == 450 then
    pal(1, 1, 0x0000ff)
  end
  local x = f % 240
  rectfill(x, 16, x + 15, 239, 0x11)
  rectfill(0, 0, 255, 7, 0x20 + 1 + f % 15)
end
