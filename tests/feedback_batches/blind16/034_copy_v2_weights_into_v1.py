def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    for name in ("W_query", "W_key", "W_value"):
        target = getattr(sa_v1, name)  # (d_in, d_out)
        source = getattr(sa_v2, name).weight  # (d_out, d_in): nn.Linear computes x @ weight.T
        # write through detached aliases: the parameter objects stay, autograd records nothing
        target.detach().copy_(source.detach().mT)
