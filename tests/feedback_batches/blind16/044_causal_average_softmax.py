import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    minus_inf = x.new_tensor(float("-inf"))  # a scalar with the dtype and device of x
    scores = minus_inf.expand(T, T).triu(1)  # -inf above the diagonal, 0 on and below it
    return torch.softmax(scores, dim=-1) @ x  # row t: 1/(t+1) on 0..t
