-- One API call whose own cost passes the cap stops the script at once.
function update()
  local text = ("x"):rep(150000):rep(100)
  print(text, 0, 0)
  error("print should not have returned")
end
