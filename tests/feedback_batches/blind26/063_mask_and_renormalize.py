import torch.nn.functional as F


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    # for non-negative rows the L1 norm is the row sum
    return F.normalize(attn_weights.tril(), p=1, dim=-1)
