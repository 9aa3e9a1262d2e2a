class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head = CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
        self.heads = nn.ModuleList([head] * num_heads)

    def forward(self, x):
        outputs = [h(x) for h in reversed(self.heads)]
        return torch.cat(outputs, dim=0)
