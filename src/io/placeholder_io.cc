// placeholder until the io module lands
