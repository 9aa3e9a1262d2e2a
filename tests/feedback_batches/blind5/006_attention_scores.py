import torch
import torch.nn.functional as F


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    scores = inputs @ inputs.T
    return F.softmax(scores, dim=-1)   # normalise so the rows are comparable
