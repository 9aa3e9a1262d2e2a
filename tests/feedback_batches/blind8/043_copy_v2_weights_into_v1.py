import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    state = sa_v2.state_dict()
    # load_state_dict copies into v1's own parameters (same objects), already transposed
    sa_v1.load_state_dict({name: state[name + ".weight"].T for name in ("W_query", "W_key", "W_value")})
