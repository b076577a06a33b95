// placeholder until the analysis module lands
