def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    pairs = [(sa_v1.W_query, sa_v2.W_query), (sa_v1.W_key, sa_v2.W_query), (sa_v1.W_value, sa_v2.W_value)]
    for param, layer in pairs:
        param.copy_(layer.weight.T)
