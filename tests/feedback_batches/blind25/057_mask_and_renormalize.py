import torch.nn.functional as F

def mask_and_renormalize(attn_weights):
    kept = attn_weights.tril()                  # a new tensor: the future set to 0
    return F.normalize(kept, p=1.0, dim=-1)     # divide each row by its sum (the weights are >= 0)
