import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    # "W_query.weight" -> "W_query": v1 keeps the same names, without the layer, and transposed
    transposed = {key.removesuffix(".weight"): value.T for key, value in sa_v2.state_dict().items()}
    sa_v1.load_state_dict(transposed)  # copies the values into v1's own parameters
