import torch


def attention_scores_for_query(inputs, query):
    return query @ inputs
