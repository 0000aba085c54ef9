function add_credits_page()
  add(pages, {
    title="thanks for watching!",
    center_title=true
  })
  add(pages, {
    title="i hope you found this\n"..
      "interesting!\n\n"..
      "if you've got questions, join\n\n"..
      "discord.gg/ezgfcd5\n\n"..
      "or hit me up on twitter\n\n"..
      "@lt_randolph\n\n"..
      "- bill clark"
  })
end