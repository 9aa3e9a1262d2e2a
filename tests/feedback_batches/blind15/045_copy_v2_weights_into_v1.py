import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    # load_state_dict copies into the parameters sa_v1 already holds (no new objects, no shared storage)
    names = ("W_query", "W_key", "W_value")
    sa_v1.load_state_dict({name: getattr(sa_v2, name).weight.detach().mT for name in names})
