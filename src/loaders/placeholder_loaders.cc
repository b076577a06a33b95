// placeholder until the loaders module lands
