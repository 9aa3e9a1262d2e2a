def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    names = ("W_query", "W_key", "W_value")
    # load_state_dict copies in place, without autograd, into the parameters sa_v1 already holds
    sa_v1.load_state_dict({name: getattr(sa_v2, name).weight.T for name in names})
