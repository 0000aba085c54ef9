-- For the window's display filter tests: a picture that never changes. Colour bars at the
-- top, a flat light grey field (where the tests look for a filter's dark rows and columns),
-- and one-pixel stripes and a checkerboard at the bottom (where sharp scaling must keep
-- every pixel).
local bars = {0xffffff, 0xffff00, 0x00ffff, 0x00ff00, 0xff00ff, 0xff0000, 0x0000ff, 0x202020}

function init()
  for i, rgb in ipairs(bars) do
    pal(0, i, rgb)
  end
  pal(0, 9, 0xc8c8c8)
  pal(0, 10, 0x101018)
  pal(0, 11, 0xf0a040)
  backdrop(0x000000)
end

function update()
end

function draw()
  for i = 1, 8 do
    rectfill((i - 1) * 32, 0, i * 32 - 1, 63, i)
  end
  rectfill(0, 64, 255, 191, 9)
  print("KAIRO TEST CARD", 68, 72, 10)
  for x = 0, 255, 2 do
    line(x, 192, x, 223, 10)
    line(x + 1, 192, x + 1, 223, 11)
  end
  for y = 224, 255 do
    for x = (y % 2), 255, 2 do
      pset(x, y, 1)
    end
  end
  rectfill(0, 224, 3, 255, 6)
end
