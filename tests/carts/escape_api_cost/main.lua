-- One API call whose own cost passes the cap stops the script at once.
function update()
  local text = string.rep("x", 15000000)
  print(text, 0, 0)
  error("print should not have returned")
end
