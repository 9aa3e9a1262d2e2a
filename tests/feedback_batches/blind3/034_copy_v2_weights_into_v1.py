import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    state = {name: tensor.T for name, tensor in sa_v2.state_dict().items()}
    sa_v1.load_state_dict(state)
