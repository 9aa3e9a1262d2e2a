def copy_v2_weights_into_v1(sa_v2, sa_v1):
    for name in ["W_query", "W_key", "W_value"]:
        layer = getattr(sa_v2, name)
        layer.weight.data = layer.weight.data.T  # v1 wants (d_in, d_out)
        setattr(sa_v1, name, layer.weight)
    return sa_v1
