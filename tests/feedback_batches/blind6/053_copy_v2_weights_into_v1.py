import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    # copy v2's state into v1's state dict: same parameter objects, new values
    state = {name[: -len(".weight")]: tensor.T for name, tensor in sa_v2.state_dict().items()}
    sa_v1.load_state_dict(state)
