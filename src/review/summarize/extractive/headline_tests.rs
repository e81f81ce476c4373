//! Headlines of the issue's real abstracts (#81): a stand-in subject names what it stands
//! for, and no headline is a fragment.

use super::clauses::is_whole_statement;
use super::*;

/// The example's 2411.17732: "It reduces power cycles…" left a reader asking what "it" is;
/// the abstract names it ("This paper presents CheckMate, …").
const CHECKMATE: (&str, &str) = (
    r#"LLM-Powered Approximate Intermittent Computing"#,
    r#"Batteryless IoT systems face energy constraints exacerbated by checkpointing overhead. Approximate computing offers solutions but demands manual expertise, limiting scalability. This paper presents CheckMate, an automated framework leveraging LLMs for context-aware code approximations. CheckMate integrates validation of LLM-generated approximations to ensure correct execution and employs Bayesian optimization to fine-tune approximation parameters autonomously, eliminating the need for developer input. Tested across six IoT applications, it reduces power cycles by up to 60% with an accuracy loss of just 8%, outperforming semi-automated tools like ACCEPT in speedup and accuracy. CheckMate's results establish it as a robust, user-friendly tool and a foundational step toward automated approximation frameworks for intermittent computing."#,
);

/// The example's 2508.13163, which names nothing it presents: "This work explores …" was
/// its headline.
const SUSTAINABLE: (&str, &str) = (
    r#"Sustainable AI Training via Hardware-Software Co-Design on NVIDIA, AMD, and Emerging GPU Architectures"#,
    r#"In particular, large-scale deep learning and artificial intelligence model training uses a lot of computational power and energy, so it poses serious sustainability issues. The fast rise in model complexity has resulted in exponential increases in energy consumption, increasing the demand for techniques maximizing computational efficiency and lowering environmental impact. This work explores environmentally driven performance optimization methods especially intended for advanced GPU architectures from NVIDIA, AMD, and other emerging GPU architectures. Our main focus is on investigating hardware-software co-design techniques meant to significantly increase memory-level and kernel-level operations, so improving performance-per-watt measures. Our thorough research encompasses evaluations of specialized tensor and matrix cores, advanced memory optimization methods, and creative integration approaches that taken together result in notable energy efficiency increases. We also discuss important software-level optimizations that augment hardware capability including mixed-precision arithmetic, advanced energy-aware scheduling algorithms, and compiler-driven kernel enhancements. Moreover, we methodically point out important research gaps and suggest future directions necessary to create really sustainable artificial intelligence systems. This paper emphasizes how major increases in training efficiency can be obtained by co-design of hardware and software, so lowering the environmental impact of artificial intelligence without compromising performance. To back up our analysis, we use real-world case studies from top companies like Meta, Google, Amazon, and others that show how these sustainable AI training methods are used in the real world."#,
);

/// Three abstracts of the reference page whose headlines were fragments: "The paper
/// characterizes how discovery reliability", "Both strong and weak scaling of workloads
/// during training and inference", "We introduce the State Twin: a typed, in-memory".
const FRAGMENTED: [(&str, &str, &str); 3] = [
    (
        r#"Trade-offs in Decentralized Agentic AI Discovery Across the Compute Continuum"#,
        r#"Agentic systems deployed across the compute continuum need discovery mechanisms that remain effective across cloud, edge, and intermittently connected domains. In some emerging agentic architectures, decentralized discovery is already an active design direction, placing DHT-based lookup on the path toward agent directories. This paper studies the trade-offs among major structured-overlay families for agent discovery, comparing Chord, Pastry, and Kademlia as candidate indexing substrates within a shared control-plane framework. Using a benchmark subset centered on a 4096-node stationary comparison and a representative 4096-node churn benchmark, the paper characterizes how discovery reliability, startup behavior, and control-plane overhead vary across these overlays. The goal is to clarify the operating points they expose for agent discovery across edge-to-cloud environments."#,
        "The paper characterizes how discovery reliability",
    ),
    (
        r#"ShardTensor: Domain Parallelism for Scientific Machine Learning"#,
        r#"Scientific Machine Learning (SciML) faces unique challenges for extreme-resolution data, with mitigations that often fail to scale or degrade the accuracy of trained models. While some specialized methods have achieved remarkable results in training models or performing inference on massive spatial datasets with bespoke techniques, there is no generalized framework for parallelization over input data below batch size one per device. In this work we introduce ShardTensor: a novel paradigm of domain parallelism that enables flexible scaling of input data to arbitrary sizes. By decoupling the spatial dimensionality of input data from hardware constraints, ShardTensor enables scientific machine learning workloads to reach new levels of high fidelity training and inference. We demonstrate both strong and weak scaling of workloads during training and inference, showing improved latency with strong scaling and demonstrating the capacity to process higher data sizes with weak scaling. Additionally, we demonstrate multiple dimensions of parallelization, removing barriers to SciML on extreme-scale inputs."#,
        "Both strong and weak scaling of workloads during training and inference",
    ),
    (
        r#"State Twins: An Off-Chain Substrate for Agentic Reasoning over Decentralized Finance Protocols"#,
        r#"We introduce the State Twin: a typed, in-memory, replayable replica of an on-chain automated market maker (AMM) pool that serves as a substrate for agentic reasoning over decentralized finance (DeFi) protocols. Agentic DeFi stacks today couple reasoning to chain time, since every "what if?" query incurs a new RPC read or a real transaction, so the agent's effective action space is bounded by block confirmation latency and gas. We argue this coupling is a structural problem rather than a performance one, and that the missing layer is an off-chain substrate that preserves the protocol's exact mathematics while admitting the operations on-chain state cannot: forking, replay, branching, counterfactual rollout. We formalize each AMM family (Uniswap V2, V3, Balancer, Stableswap) as a discrete-time controlled dynamical system, prove a quantitative fidelity bound on the divergence between twin and chain, and give the open architecture used in DeFiPy v2, an open-source Python toolkit that ships the State Twin substrate and a reference Model Context Protocol server exposing typed analytical primitives as LLM tools. The same primitive (i.e., one Python class, one calling pattern) serves a notebook quant, a backtest, and an LLM agent without modification. We close with a fork-and-evaluate worked example: a single live RPC read seeds N independent in-memory twins under distinct price-shock scenarios, in sub-second wall-clock time. The contribution is the substrate, not a particular agent, which is what the specification of what an agentic DeFi substrate must look like"#,
        "We introduce the State Twin: a typed, in-memory",
    ),
];

#[test]
fn a_headline_names_what_its_pronoun_stood_for() {
    let (title, abstract_text) = CHECKMATE;
    assert_eq!(
        summarize_titled(title, abstract_text).headline,
        "CheckMate reduces power cycles by up to 60% with an accuracy loss of just 8%"
    );
    // Where the paper names nothing, another sentence speaks.
    let (title, abstract_text) = SUSTAINABLE;
    assert_eq!(
        summarize_titled(title, abstract_text).headline,
        "The fast rise in model complexity has resulted in exponential increases"
    );
}

#[test]
fn a_headline_is_a_whole_statement_or_none() {
    let mut headlines = Vec::new();
    for (title, abstract_text, fragment) in FRAGMENTED {
        let headline = summarize_titled(title, abstract_text).headline;
        assert_ne!(headline, fragment);
        assert!(is_whole_statement(&headline, ""), "{headline}");
        headlines.push(headline);
    }
    assert_eq!(
        headlines,
        [
            "The goal is to clarify the operating points they expose for agent discovery",
            "Scientific Machine Learning (SciML) faces unique challenges for extreme-resolution data",
            "Agentic DeFi stacks today couple reasoning to chain time",
        ]
    );
}
