def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    # state_dict() hands out detached tensors sharing the parameters' storage,
    # so copy_ into them writes sa_v1's parameters without autograd recording it
    mine, theirs = sa_v1.state_dict(), sa_v2.state_dict()
    for name in ("W_query", "W_key", "W_value"):
        mine[name].copy_(theirs[name + ".weight"].t())
