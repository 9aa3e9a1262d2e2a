import torch
import torch.nn.functional as F


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    unit = F.normalize(inputs, dim=-1)  # compare directions, not lengths
    return unit @ unit.T
