class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # the opposite convention: True where a query may look
        self.register_buffer("visible", torch.ones(context_length, context_length).tril().bool())

    @property
    def scale(self):
        return self.W_key.out_features ** -0.5

    def forward(self, x):
        T = x.shape[-2]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = (q @ k.mT) * self.scale
        scores = scores.masked_fill(self.visible[:T, :T].logical_not(), float("-inf"))
        return self.dropout(scores.softmax(dim=-1)) @ v
